import { describe, expect, it } from "vitest";
import { type BackgroundJob, createJobs } from "./registry.ts";

function recordingJob(name: string, events: string[], withClaims = true): BackgroundJob {
  return {
    name,
    start: () => events.push(`start ${name}`),
    stop: async () => {
      events.push(`stop ${name}`);
    },
    ...(withClaims && {
      releaseOwnClaims: async () => {
        events.push(`release ${name}`);
      },
    }),
  };
}

describe("the background jobs of one process", () => {
  it("on the embedded database, releases every earlier claim before any job starts", async () => {
    const events: string[] = [];
    const jobs = createJobs(
      [recordingJob("digest", events), recordingJob("counting", events, false)],
      { ownsDatabase: true },
    );
    await jobs.start();
    expect(events).toEqual(["release digest", "start digest", "start counting"]);
  });

  it("on PostgreSQL, leaves other instances' claims to their leases", async () => {
    const events: string[] = [];
    const jobs = createJobs([recordingJob("digest", events)], { ownsDatabase: false });
    await jobs.start();
    expect(events).toEqual(["start digest"]);
  });

  it("starts once, and stops in the order given, each after the one before has stopped", async () => {
    const events: string[] = [];
    const jobs = createJobs(
      [recordingJob("digest", events, false), recordingJob("counting", events, false)],
      { ownsDatabase: false },
    );
    await jobs.start();
    await jobs.start();
    await jobs.stop();
    expect(events).toEqual(["start digest", "start counting", "stop digest", "stop counting"]);
    expect(jobs.names).toEqual(["digest", "counting"]);
  });
});
