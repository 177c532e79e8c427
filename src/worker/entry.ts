// The worker script openLongshipInWorker() starts (as a module Worker or SharedWorker): Longship with
// the options the page sends. For another embedder or store, write a script like this one that
// passes `open` to exposeLongship.
import { exposeLongship } from './expose.js';

exposeLongship();
