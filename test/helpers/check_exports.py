"""Reads AAR Harness's exports back with the tools' own Python models; prints one JSON object.

  python check_exports.py atif FILE...        each trajectory.json through harbor's Trajectory model
  python check_exports.py inspect FILE...     each eval log through inspect_ai.log.read_eval_log: per sample its scores
  python check_exports.py harbor JOB_DIR      Harbor's JobResult, and per trial TrialResult, reward.json, Trajectory
"""
import json
import sys
from pathlib import Path


def atif(files):
    from harbor.models.trajectories import Trajectory
    out = {}
    for f in files:
        t = Trajectory.model_validate(json.loads(Path(f).read_text()))
        out[f] = {"schema_version": t.schema_version, "steps": len(t.steps), "sources": [s.source for s in t.steps],
                  "tool_calls": sum(len(s.tool_calls or []) for s in t.steps),
                  "observations": sum(len(s.observation.results) if s.observation else 0 for s in t.steps),
                  "bytes": Path(f).stat().st_size}
    return out


def inspect(files):
    from inspect_ai.log import list_eval_logs, read_eval_log
    out = {}
    # `inspect view --log-dir DIR` shows the logs list_eval_logs finds there.
    listed = {Path(info.name.removeprefix("file://")).resolve() for d in {str(Path(f).parent) for f in files} for info in list_eval_logs(d)}
    missing = [f for f in files if Path(f).resolve() not in listed]
    if missing:
        raise SystemExit(f"not listed by inspect_ai.log.list_eval_logs: {missing}")
    for f in files:
        log = read_eval_log(f)
        out[f] = {"status": log.status, "samples": [
            {"id": s.id, "epoch": s.epoch, "trial_id": s.metadata.get("trial_id"), "messages": len(s.messages),
             "roles": [m.role for m in s.messages],
             "scores": {k: v.value for k, v in (s.scores or {}).items()},
             "model_usage": {k: u.model_dump(exclude_none=True) for k, u in s.model_usage.items()}}
            for s in log.samples or []]}
    return out


def harbor(job_dir):
    from harbor.models.job.result import JobResult
    from harbor.models.trajectories import Trajectory
    from harbor.models.trial.result import TrialResult
    job = Path(job_dir)
    result = JobResult.model_validate_json((job / "result.json").read_text())
    trials = {}
    for d in sorted(p for p in job.iterdir() if p.is_dir()):
        tr = TrialResult.model_validate_json((d / "result.json").read_text())
        Trajectory.model_validate(json.loads((d / "agent" / "trajectory.json").read_text()))
        trials[tr.trial_name] = {"rewards": tr.verifier_result.rewards, "reward_json": json.loads((d / "verifier" / "reward.json").read_text()),
                                 "reward_valid": tr.reward_valid, "tokens": list(tr.compute_token_cost_totals())}
    return {"n_total_trials": result.n_total_trials, "evals": list(result.stats.evals), "trials": trials}


if __name__ == "__main__":
    kind, args = sys.argv[1], sys.argv[2:]
    print(json.dumps({"atif": atif, "inspect": inspect, "harbor": lambda a: harbor(a[0])}[kind](args)))
