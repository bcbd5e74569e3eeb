import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/common';

/** Spanish. */
export const messages: Record<keyof typeof en, Message> = {
  'stream.label': 'Comentarios',
  'stream.loading': 'Cargando comentarios…',
  'stream.tabs': 'Secciones de comentarios',
  'stream.tab.comments': 'Comentarios',
  'stream.tab.featured': 'Destacados',
  'stream.tab.profile': 'Mi perfil',
  'stream.tab.configure': 'Configurar',
  'stream.count': { one: '{count} comentario', other: '{count} comentarios' },
  'stream.closed': 'Los comentarios de este artículo están cerrados.',
  'stream.guidelines': 'Normas de la comunidad',
  'stream.empty': 'Aún no hay comentarios. ¡Empieza la conversación!',
  'stream.noStory': 'No se encontró este artículo.',
  'stream.notPermitted':
    'Esta página ({origin}) no es un origen permitido de ningún sitio de este servidor Parley. Responsable del sitio: añádelo a los orígenes permitidos del sitio en la consola (Configurar → Sitios).',
  'stream.notInstalled':
    'Parley aún no está configurado. Responsable del sitio: abre el asistente de instalación en {url}.',
  'stream.loadFailed': 'No se pudieron cargar los comentarios.',
  'stream.retry': 'Reintentar',
  'stream.live.reconnecting': 'Actualizaciones en directo en pausa, reconectando…',
  'stream.live.offline': 'Estás sin conexión. Tus comentarios se enviarán al volver.',
};
