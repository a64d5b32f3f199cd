// dynalite for the tests: the local fleet's own starter (local/dynamodb/dynalite.ts), re-exported.
export { startDynalite, type LocalDynamo } from '../../../local/dynamodb/dynalite.ts';
