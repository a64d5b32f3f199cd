// A Logger port that keeps its entries (with the invocation keys in force when each was written).
import type { Logger } from '../../shared/ports/logger.ts';

export interface LogEntry {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

export class MemoryLogger implements Logger {
  readonly entries: LogEntry[] = [];
  private keys: Readonly<Record<string, string>> = {};
  startInvocation(keys: Readonly<Record<string, string>>): void {
    this.keys = { ...keys };
  }
  debug(message: string, fields: Record<string, unknown> = {}): void {
    this.push('debug', message, fields);
  }
  info(message: string, fields: Record<string, unknown> = {}): void {
    this.push('info', message, fields);
  }
  warn(message: string, fields: Record<string, unknown> = {}): void {
    this.push('warn', message, fields);
  }
  error(message: string, fields: Record<string, unknown> = {}): void {
    this.push('error', message, fields);
  }
  messages(level?: LogEntry['level']): string[] {
    return this.entries.filter((e) => !level || e.level === level).map((e) => e.message);
  }
  private push(level: LogEntry['level'], message: string, fields: Record<string, unknown>): void {
    this.entries.push({ level, message, fields: { ...this.keys, ...fields } });
  }
}
