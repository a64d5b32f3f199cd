// The EC2 adapter's surface for handlers: the EventBridge interruption event parser (the provider itself is
// built by functions/compose).
export { ec2SignalsFromEvents, parseEc2Event, InterruptionEventError } from './interruption.ts';
