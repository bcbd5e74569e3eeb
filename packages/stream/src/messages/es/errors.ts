import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/errors';

/** Spanish error messages. */
export const messages: Record<keyof typeof en, Message> = {
  'error.UNAUTHENTICATED': 'Inicia sesión primero.',
  'error.FORBIDDEN': 'No tienes permiso para hacer eso.',
  'error.INVALID_INPUT': 'Revisa lo que has escrito.',
  'error.NOT_FOUND': 'Ese comentario o artículo ya no existe.',
  'error.COMMENT_EMPTY': 'Escribe algo primero.',
  'error.COMMENT_TOO_LONG': 'Tu comentario es demasiado largo. Acórtalo, por favor.',
  'error.BANNED_WORD':
    'Tu comentario contiene una palabra que esta comunidad no permite. Edítalo y publícalo de nuevo.',
  'error.EDIT_WINDOW_EXPIRED': 'El tiempo para editar este comentario ha terminado.',
  'error.DOCUMENT_NOT_TRUSTED': 'Parley se ha actualizado. Recarga la página.',
  'error.SECOND_FACTOR_REQUIRED':
    'Vuelve a iniciar sesión con tu app de autenticación para moderar.',
  'error.TWO_FACTOR_ENROLMENT_REQUIRED':
    'Activa el inicio de sesión en dos pasos en la consola para moderar.',
  'error.STORY_CLOSED': 'Los comentarios de este artículo están cerrados.',
  'error.USER_BANNED': 'Tu cuenta tiene prohibido comentar.',
  'error.USER_SUSPENDED': 'Tu cuenta está suspendida hasta el {until}.',
  'error.RATE_LIMITED': {
    one: 'Vas un poco rápido. Inténtalo de nuevo en {seconds} segundo.',
    other: 'Vas un poco rápido. Inténtalo de nuevo en {seconds} segundos.',
  },
  'error.ORIGIN_NOT_PERMITTED':
    'Este sitio no tiene permiso para mostrar comentarios de este servidor.',
  'error.NOT_INSTALLED': 'Los comentarios aún no están configurados en este servidor.',
  'error.TOKEN_INVALID': 'Tu sesión no es válida. Vuelve a iniciar sesión.',
  'error.TOKEN_EXPIRED': 'Tu sesión ha terminado. Vuelve a iniciar sesión.',
  'error.STORAGE_FULL': 'El servidor está lleno. Inténtalo más tarde.',
  'error.SERVICE_UNAVAILABLE': 'El servidor tiene problemas. Inténtalo pronto.',
  'error.INTERNAL': 'Algo ha fallado en nuestro lado. Inténtalo de nuevo.',
  'error.NETWORK_ERROR': 'No se puede conectar con el servidor de comentarios. Revisa tu conexión.',
  'error.REQUEST_TIMEOUT': 'El servidor de comentarios no responde. Inténtalo de nuevo.',
  'error.BAD_RESPONSE':
    'El servidor de comentarios respondió de forma inesperada. Inténtalo de nuevo.',
  'error.STORAGE_QUOTA_EXCEEDED': 'Tu navegador no tiene espacio para guardar un borrador.',
  'error.STORAGE_UNAVAILABLE': 'Tu navegador no nos deja guardar un borrador.',
  'error.STORAGE_INVALID_VALUE': 'Eso no se puede guardar como borrador.',
};
