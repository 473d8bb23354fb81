"""Reads AAR Harness's exports back with the tools' own Python models; prints one JSON object.

  python check_exports.py atif FILE...        each trajectory.json through harbor's Trajectory model
  python check_exports.py inspect FILE...     each eval log through inspect_ai.log.read_eval_log: its header alone
                                              (header_only=True, as `inspect view` lists logs), then whole: per
                                              sample its target, answer, explanation, scores and events
  python check_exports.py harbor JOB_DIR      Harbor's JobResult, and per trial TrialResult, reward.json, Trajectory
  python check_exports.py scan JOBS_DIR       Harbor's viewer JobScanner over a folder of jobs (it logs and returns
                                              None for a file it cannot parse: each None is reported)
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
        # What `inspect view` reads for its list: the header alone, which must come before the samples.
        header = read_eval_log(f, header_only=True)
        log = read_eval_log(f)
        out[f] = {"status": log.status,
                  "header": {"task": header.eval.task, "task_id": header.eval.task_id, "model": header.eval.model,
                             "plan": [step.solver for step in header.plan.steps], "samples": header.eval.dataset.samples,
                             "scores": {s.name: s.metrics["mean"].value for s in (header.results.scores if header.results else [])},
                             "started_at": header.stats.started_at, "has_samples": header.samples is not None},
                  "samples": [
            {"id": s.id, "epoch": s.epoch, "trial_id": s.metadata.get("trial_id"), "messages": len(s.messages),
             "roles": [m.role for m in s.messages], "input": s.input, "target": s.target,
             "output": s.output.completion, "limit": s.limit.type if s.limit else None,
             "scores": {k: v.value for k, v in (s.scores or {}).items()},
             "answers": {k: v.answer for k, v in (s.scores or {}).items()},
             "explanations": {k: v.explanation for k, v in (s.scores or {}).items()},
             "events": [e.event for e in s.events],
             "model_inputs": [len(e.input) for e in s.events if e.event == "model"],
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


def scan(jobs_dir):
    from harbor.viewer.scanner import JobScanner
    scanner = JobScanner(Path(jobs_dir))
    out = {}
    for job in scanner.list_jobs():
        config = scanner.get_job_config(job)
        result = scanner.get_job_result(job)
        trials = {}
        for name in scanner.list_trials(job):
            tc = scanner.get_trial_config(job, name)
            tr = scanner.get_trial_result(job, name)
            trials[name] = None if tc is None or tr is None else {
                "agent": tr.agent_info.name, "model": tr.agent_info.model_info.name if tr.agent_info.model_info else None,
                "trial_uri": tr.trial_uri, "trials_dir": str(tc.trials_dir), "source": tr.source,
                "started_at": tr.started_at.isoformat() if tr.started_at else None,
                "finished_at": tr.finished_at.isoformat() if tr.finished_at else None,
                "phases": {p: bool(getattr(tr, p)) for p in ("environment_setup", "agent_setup", "agent_execution", "verifier")},
                "exception": tr.exception_info.exception_type if tr.exception_info else None,
                "tokens": list(tr.compute_token_cost_totals())}
        out[job] = {
            "config": None if config is None else {"agents": [a.name for a in config.agents], "models": [a.model_name for a in config.agents],
                                                   "datasets": [d.name or (d.path and d.path.name) for d in config.datasets],
                                                   "environment": config.environment.type.value if config.environment.type else None},
            "result": None if result is None else {"n_total_trials": result.n_total_trials, "n_completed": result.stats.n_completed_trials,
                                                   "n_errored": result.stats.n_errored_trials, "evals": list(result.stats.evals),
                                                   "n_input_tokens": result.stats.n_input_tokens, "cost_usd": result.stats.cost_usd},
            "trials": trials}
    return out


if __name__ == "__main__":
    kind, args = sys.argv[1], sys.argv[2:]
    print(json.dumps({"atif": atif, "inspect": inspect, "harbor": lambda a: harbor(a[0]), "scan": lambda a: scan(a[0])}[kind](args)))
