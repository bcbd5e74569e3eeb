/** The storage layer: open the database, then call the stores with `db` (or a transaction). */
export * from './createDatabase';
export * from './inTransaction';
export * from './isUniqueViolation';
export * from './migrations';
export * from './schema';
export * from './store/commentQueries';
export * from './store/comments';
export * from './store/organization';
export * from './store/paginate';
export * from './store/reactions';
export * from './store/sites';
export * from './store/stories';
export * from './store/tokens';
export * from './store/userModeration';
export * from './store/users';
