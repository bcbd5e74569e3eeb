import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/thread';

/** Spanish. */
export const messages: Record<keyof typeof en, Message> = {
  'thread.commentBy': 'Comentario de {name}',
  'thread.deletedUser': 'Usuario eliminado',
  'thread.edited': 'editado',
  'thread.staff': 'Equipo',
  'thread.removed': 'Este comentario fue eliminado.',
  'thread.like': 'Me gusta',
  'thread.liked': 'Te gusta',
  'thread.reply': 'Responder',
  'thread.share': 'Compartir',
  'thread.share.copied': 'Enlace copiado',
  'thread.share.updated': 'La dirección de la página ahora enlaza a este comentario',
  'thread.report': 'Denunciar',
  'thread.edit': 'Editar',
  'thread.delete': 'Borrar',
  'thread.ignore': 'Ignorar usuario',
  'thread.sortBy': 'Ordenar por',
  'thread.sort.CREATED_AT_DESC': 'Más recientes',
  'thread.sort.CREATED_AT_ASC': 'Más antiguos',
  'thread.sort.REPLIES_DESC': 'Más respuestas',
  'thread.sort.REACTIONS_DESC': 'Más reacciones',
  'thread.feed': 'Sigue estos comentarios en un lector de feeds (Atom)',
  'thread.loadMore': 'Cargar más',
  'thread.moreReplies': 'Ver más respuestas ({count})',
  'thread.continue': 'Seguir este hilo',
  'thread.newComments': { one: '{count} comentario nuevo', other: '{count} comentarios nuevos' },
  'thread.local.posting': 'Publicando…',
  'thread.local.queued': 'Se enviará cuando vuelvas a estar en línea',
  'thread.local.held': 'Tu comentario aparecerá después de ser revisado',
};
