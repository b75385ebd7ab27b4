import { EmptyState } from '../../components/EmptyState';

export function HiveView() {
  return (
    <EmptyState title="Hive quarantine">
      <p>Hive entries selected for quarantine, their blast radius, the quarantine backups and their rollback state will appear here. Quarantine and rollback are human-only commands confirmed in this window.</p>
    </EmptyState>
  );
}
