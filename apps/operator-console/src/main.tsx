import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadConfig } from './config';
import './styles.css';

const root = createRoot(document.getElementById('root') as HTMLElement);
loadConfig().then(
  (config) =>
    root.render(
      <StrictMode>
        <App config={config} />
      </StrictMode>,
    ),
  (error: unknown) =>
    root.render(
      <p role="alert" className="fatal">
        The console could not read its configuration: {error instanceof Error ? error.message : String(error)}
      </p>,
    ),
);
