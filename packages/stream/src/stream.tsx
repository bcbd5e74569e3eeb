// Entry of /embed/stream: the comment stream inside the iframe.
import { mountStream } from './mountStream';

const root = document.getElementById('parley-root');
if (root) mountStream({ window, root });
