// The database's file name in the data folder: for the store that opens it and for the probe that checks it.

export const databaseFileName = 'switchyard.db';
