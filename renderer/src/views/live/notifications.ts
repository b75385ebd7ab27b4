import type { RepeatAlert } from '../../../../shared/contract/live';
import { plural } from '../../state/format';

/**
 * Desktop notifications through the web Notifications API: in the browser host after the
 * operator grants permission, and in Electron's renderer (where the same API shows a native
 * notification, allowed by the main process's permission handler).
 */
type NotificationPermissionState = 'granted' | 'denied' | 'default' | 'unsupported';

export function notificationPermission(): NotificationPermissionState {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export async function askNotificationPermission(): Promise<NotificationPermissionState> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.requestPermission();
}

export function alertTitle(alert: RepeatAlert): string {
  return `Directive ${alert.directiveId} blocked ${alert.tool} ${alert.count}× in ${alert.windowMinutes} min`;
}

export function notifyRepeat(alert: RepeatAlert): void {
  if (notificationPermission() !== 'granted') return;
  try {
    new Notification(alertTitle(alert), {
      body: `${plural(alert.sessionIDs.length, 'session')}: ${alert.sessionIDs.slice(0, 3).join(', ')}`,
      tag: `repeat:${alert.directiveId}:${alert.tool}`,
    });
  } catch {
    // some hosts allow the permission but not the constructor (e.g. service-worker-only contexts)
  }
}
