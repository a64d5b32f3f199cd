// Tables are created from infra/dynamodb by the local fleet's own code (local/dynamodb); tests re-use it.
export {
  createTable,
  createTableInput,
  tableResources,
  type TableResource,
} from '../../../local/dynamodb/tables.ts';
