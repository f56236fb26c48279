// A connect that cannot be done as asked (an unknown tool, a config file that cannot be edited safely): the
// message says what to fix. The bridge answers it as a 400, the CLI prints it as one line.

import { ApiError } from '../../shared/api/index.js';

export class ConnectError extends ApiError {
  constructor(message: string) {
    super(400, message);
    this.name = 'ConnectError';
  }
}
