/** `agent-bench config schema run|ladder`: the JSON Schema of the command's `--config` file. */
import { configJsonSchema } from '../option-table/config-schema.js';
import type { TableCommand } from '../option-table/spec.js';

export interface ConfigSchemaOptions {
  command: TableCommand;
  write?: (text: string) => void;
}

export function configSchemaCommand(o: ConfigSchemaOptions): void {
  const write = o.write ?? ((text: string) => void process.stdout.write(text));
  write(`${JSON.stringify(configJsonSchema(o.command), null, 2)}\n`);
}
