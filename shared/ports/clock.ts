// Clock port: the only source of time for the core and the use cases.
export interface Clock {
  now(): Date;
}
