/**
 * What docs/deploy.md and docs/install.md show of the deployment files is what those
 * files hold: the nginx block is part of deploy/nginx.conf (which .ci/replicas.mjs
 * runs), and the container's entry command is deploy/Dockerfile's.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));

describe('deployment docs', () => {
  it("docs/deploy.md's nginx block is taken from deploy/nginx.conf", () => {
    const block = /```nginx\n([\s\S]*?)```/.exec(read('docs/deploy.md'))?.[1];
    expect(block).toBeDefined();
    const conf = new Set(lines(read('deploy/nginx.conf')));
    for (const l of lines(block!)) expect(conf, l).toContain(l);
  });

  it("docs/install.md names the Dockerfile's entry command and default arguments", () => {
    const docker = read('deploy/Dockerfile');
    const entry = JSON.parse(/^ENTRYPOINT\s+(\[.*\])$/m.exec(docker)![1]!) as string[];
    const cmd = JSON.parse(/^CMD\s+(\[.*\])$/m.exec(docker)![1]!) as string[];
    const install = read('docs/install.md');
    expect(install).toContain(`\`${entry.join(' ')}\``);
    expect(install).toContain(`\`${cmd.join(' ')}\``);
  });
});
