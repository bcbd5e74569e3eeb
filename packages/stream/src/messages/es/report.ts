import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/report';

/** Spanish: the report form. */
export const messages: Record<keyof typeof en, Message> = {
  'thread.report.title': 'Denunciar este comentario',
  'thread.report.OFFENSIVE': 'Ofensivo',
  'thread.report.ABUSIVE': 'Abusivo',
  'thread.report.SPAM': 'Spam',
  'thread.report.OTHER': 'Otro',
  'thread.report.details': 'Detalles (opcional)',
  'thread.report.send': 'Enviar denuncia',
  'thread.report.cancel': 'Cancelar',
  'thread.report.close': 'Cerrar',
  'thread.report.sent': 'Gracias. Un moderador revisará este comentario.',
};
