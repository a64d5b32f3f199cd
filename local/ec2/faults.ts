// The EC2 emulator's error: an EC2 error code, its message and the HTTP status EC2 sends it with.
export class Ec2Fault extends Error {
  override name = 'Ec2Fault';
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}
