// Entry of /admin, /install and /account/*: the console.
import { mountConsole } from './mountConsole';

const root = document.getElementById('parley-console');
if (root) mountConsole({ window, root });
