import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/composer';

/** Spanish. */
export const messages: Record<keyof typeof en, Message> = {
  'composer.label': 'Escribe un comentario',
  'composer.replyLabel': 'Escribe una respuesta',
  'composer.toolbar': 'Formato',
  'composer.bold': 'Negrita',
  'composer.italic': 'Cursiva',
  'composer.quote': 'Cita',
  'composer.link': 'Enlace',
  'composer.code': 'Código',
  'composer.preview': 'Vista previa',
  'composer.image': 'Imagen',
  'composer.uploading': 'Subiendo la imagen…',
  'composer.previewLoading': 'Cargando la vista previa…',
  'composer.previewEmpty': 'Aún no hay nada que mostrar.',
  'composer.left': { one: 'Queda {count} carácter', other: 'Quedan {count} caracteres' },
  'composer.over': { one: 'Sobra {count} carácter', other: 'Sobran {count} caracteres' },
  'composer.post': 'Publicar',
  'composer.queued':
    'No tienes conexión. Tu comentario está guardado y se publicará cuando vuelvas a estar en línea.',
};
