/** Stylesheets are imported for Vite to bundle; they export nothing. */
declare module '*.css';
