import assert from "node:assert/strict";
import { BARRIER_MS, barrierFolderOf, watchFolders } from "../../../src/adapters/_watch.ts";

/** How long a barrier the test expects to arrive may wait: a loaded CI machine is slower than a search's bound. */
const CAUGHT_UP_MS = 30_000;

/** A temporary folder, its real path. */
async function folder(): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix: "graver-watch-test-" }));
}

Deno.test("watchFolders (Deno): a change in a watched folder is reported by the time the barrier returns", async () => {
  const dir = await folder();
  await Deno.mkdir(`${dir}/sub`);
  const heard: string[] = [];
  const feed = watchFolders!([dir], (paths) => heard.push(...(paths ?? ["<lost>"])));
  try {
    assert.equal(await feed.sync(CAUGHT_UP_MS), true);
    assert.equal(heard.length, 0, "the barrier's own file is never reported");
    await Deno.writeTextFile(`${dir}/a.ts`, "a\n");
    assert.equal(await feed.sync(CAUGHT_UP_MS), true);
    assert.ok(heard.includes(`${dir}/a.ts`), JSON.stringify(heard));
    heard.length = 0;
    await Deno.writeTextFile(`${dir}/sub/deeper.ts`, "not watched: the watch is not recursive\n");
    assert.equal(await feed.sync(CAUGHT_UP_MS), true);
    assert.deepEqual(heard.filter((p) => p.startsWith(`${dir}/sub/`)), []);
  } finally {
    feed.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("watchFolders (Deno): a closed watch's barrier answers false and its private folder is gone", async () => {
  const dir = await folder();
  try {
    const feed = watchFolders!([dir], () => {});
    const barriers = barrierFolderOf(feed)!;
    assert.ok(Deno.statSync(barriers).isDirectory, "a private barrier folder per watch");
    assert.ok(!barriers.startsWith(`${dir}/`), "outside the watched tree");
    assert.equal(await feed.sync(CAUGHT_UP_MS), true);
    feed.close();
    assert.equal(await feed.sync(), false);
    assert.throws(() => Deno.statSync(barriers), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("watchFolders (Deno): while another watched folder of the process exists outside a watch, its barrier answers false", async () => {
  const a = await folder();
  const b = await folder();
  const feedA = watchFolders!([a], () => {});
  try {
    assert.equal(await feedA.sync(CAUGHT_UP_MS), true);
    const feedB = watchFolders!([b], () => {}); // Deno queues b's events where a's watch never sees them
    assert.equal(await feedA.sync(), false);
    assert.equal(await feedB.sync(), false);
    feedB.close();
    await Deno.remove(b, { recursive: true }); // gone: nothing more can come from it
    assert.equal(await feedA.sync(CAUGHT_UP_MS), true);
  } finally {
    feedA.close();
    await Deno.remove(a, { recursive: true });
  }
});

Deno.test("watchFolders (Deno): the barrier's bound is short", () => {
  assert.ok(BARRIER_MS <= 1000);
});

Deno.test("watchFolders (Deno): barriers touch the same few files again instead of one file each, and still order every change", async () => {
  const dir = await folder();
  const heard: string[] = [];
  try {
    const feed = watchFolders!([dir], (paths) => heard.push(...(paths ?? ["<lost>"])));
    const barriers = barrierFolderOf(feed)!;
    try {
      assert.equal(await feed.sync(CAUGHT_UP_MS), true, "in place once ready, and caught up");
      for (let i = 0; i < 20; i++) {
        await Deno.writeTextFile(`${dir}/f${i}.ts`, `${i}\n`);
        assert.equal(await feed.sync(CAUGHT_UP_MS), true);
        assert.ok(
          heard.includes(`${dir}/f${i}.ts`),
          `change ${i} reported by its barrier: ${JSON.stringify(heard)}`,
        );
      }
      const files = [...Deno.readDirSync(barriers)];
      // Kept, not removed after each barrier (a removal's event costs Deno a failing lookup per watched
      // folder), and touched again only once a later barrier showed its events all reported: two files.
      assert.ok(files.length >= 1 && files.length <= 2, `${files.length} barrier files after 20 barriers`);
      assert.ok(heard.every((p) => p.startsWith(`${dir}/`)), "the barriers' own files are never reported");
    } finally {
      feed.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const SWAPPER = new URL("../fs/_symlink_swapper.ts", import.meta.url).pathname;

Deno.test("watchFolders (Deno): a watch set up while the system watcher is flooded never blocks the main thread", async () => {
  const a = await folder();
  const b = await folder();
  const outside = await folder();
  await Deno.mkdir(`${a}/v`);
  let heard = 0;
  const flooded = watchFolders!([a, `${a}/v`], () => heard++);
  // Another process renames a watched folder over and over for FLOOD_S seconds: Deno's inotify thread is busy.
  const FLOOD_S = 6;
  const child = new Deno.Command("timeout", {
    args: [
      String(FLOOD_S),
      Deno.execPath(),
      "run",
      "--allow-read",
      "--allow-write",
      SWAPPER,
      `${a}/v`,
      outside,
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const feeds = [flooded];
  try {
    assert.equal(await flooded.sync(CAUGHT_UP_MS), true);
    for (let i = 0; i < 200 && heard < 200; i++) await new Promise((r) => setTimeout(r, 10)); // the flood is on
    const asked = performance.now();
    const second = watchFolders!([b], () => {});
    feeds.push(second);
    const ran = await new Promise<number>((r) => setTimeout(() => r(performance.now()), 20));
    // Set up on the main thread, the call returned only once the flood was over (~FLOOD_S s later).
    assert.ok(ran - asked < (FLOOD_S * 1000) / 3, `the main thread ran ${(ran - asked).toFixed(0)} ms after`);
    // Behind the flood (the thread waits in the second set-up), a barrier cannot show it caught up; the next
    // answers false at once instead of waiting its bound again.
    if (!await flooded.sync()) {
      const gaveUp = performance.now();
      assert.equal(await flooded.sync(CAUGHT_UP_MS), false, "still behind");
      assert.ok(performance.now() - gaveUp < BARRIER_MS, "answered without waiting its bound again");
    }
  } finally {
    await child.status;
    for (const feed of feeds) feed.close();
    for (const dir of [a, b, outside]) await Deno.remove(dir, { recursive: true });
  }
});
