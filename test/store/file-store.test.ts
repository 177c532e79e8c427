import { storeContract } from '../contracts/store.contract.js';
import { fileHarness } from './file-harness.js';

storeContract('FileStore', () => fileHarness());
