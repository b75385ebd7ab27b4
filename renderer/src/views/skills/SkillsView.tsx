import { EmptyState } from '../../components/EmptyState';

export function SkillsView() {
  return (
    <EmptyState title="Skills">
      <p>Skill proposals (.swarm/skills/proposals), active generated skills (.opencode/skills/generated), their evals and the rejected-edits ledger will appear here, with a diff of each draft against the active skill.</p>
    </EmptyState>
  );
}
