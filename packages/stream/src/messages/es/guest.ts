import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/guest';

/** Spanish: comentar como invitado. */
export const messages: Record<keyof typeof en, Message> = {
  'guest.title': 'Publicar como invitado',
  'guest.explain': 'No hace falta una cuenta. Tu comentario puede esperar a un moderador.',
  'guest.name': 'Tu nombre',
  'guest.email': 'Correo (opcional, para las respuestas)',
  'guest.emailHint':
    'Te enviamos un enlace para confirmarlo; solo después te avisamos de respuestas.',
  'guest.post': 'Publicar como invitado',
  'guest.signIn': 'Iniciar sesión',
  'guest.cancel': 'Cancelar',
  'guest.nameMissing': 'Escribe un nombre de al menos {min} caracteres.',
  'guest.nameInvalid': "Usa de {min} a {max} letras, números, espacios y _ . - ' para tu nombre.",
  'guest.emailInvalid': 'Escribe un correo como nombre@ejemplo.com, o déjalo vacío.',
};
