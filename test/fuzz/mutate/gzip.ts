/**
 * Gzip-aware mutations: wrap plain bytes as one or several members (member boundaries anywhere,
 * empty members, header fields), then optionally damage the container exactly where it matters:
 * CRC32, ISIZE, truncation, trailing bytes, the deflate data.
 * @module
 */
import { checkGzip, concatBytes, gzipMember, gzipWithHeaderFields } from '../gzip-tools.ts';
import type { Rng } from '../rng.ts';
import type { ByteMutation } from './bytes.ts';

export const WRAP_OPS = ['single', 'single', 'multi-member', 'empty-members', 'header-fields', 'stored'] as const;
export const DAMAGE_OPS = [
  'crc',
  'isize',
  'truncate',
  'trailing-garbage',
  'trailing-zeros',
  'append-member',
  'flip-deflate',
  'second-magic-only',
  'none',
] as const;
export type WrapOp = (typeof WRAP_OPS)[number];
export type DamageOp = (typeof DAMAGE_OPS)[number];

/**
 * Gzips `plain` in one of several valid shapes.
 * @example
 * checkGzip(wrapGzip(bytes, createRng(1, 0), 'multi-member').bytes).ok; // true
 */
export function wrapGzip(plain: Uint8Array, rng: Rng, op: WrapOp = rng.pick(WRAP_OPS)): ByteMutation {
  switch (op) {
    case 'single':
      return { bytes: gzipMember(plain, rng.range(1, 9)), note: 'gzip' };
    case 'stored':
      return { bytes: gzipMember(plain, 0), note: 'gzip level 0 (stored blocks)' };
    case 'multi-member':
    case 'empty-members': {
      const cuts = new Set<number>();
      const count = rng.range(1, Math.min(8, plain.length + 1));
      for (let i = 0; i < count; i++) cuts.add(rng.int(plain.length + 1));
      const bounds = [0, ...[...cuts].sort((a, b) => a - b), plain.length];
      const members: Uint8Array[] = [];
      for (let i = 0; i + 1 < bounds.length; i++) {
        members.push(gzipMember(plain.subarray(bounds[i], bounds[i + 1]), rng.range(1, 9)));
        if (op === 'empty-members' && rng.chance(0.5)) members.push(gzipMember(new Uint8Array(0)));
      }
      return {
        bytes: concatBytes(members),
        note: `gzip ${members.length} members cut at ${bounds.slice(1, -1).join(',')}`,
      };
    }
    case 'header-fields':
      return {
        bytes: gzipWithHeaderFields(plain, {
          ...(rng.chance(0.7) ? { name: rng.pick(['export.json', 'x'.repeat(300), 'é.ndjson', '']) } : {}),
          ...(rng.chance(0.5) ? { comment: rng.pick(['made by fuzz', '\u00ff'.repeat(10)]) } : {}),
          ...(rng.chance(0.5) ? { extra: rng.bytes(rng.size(600)) } : {}),
        }),
        note: 'gzip with FNAME/FCOMMENT/FEXTRA',
      };
  }
}

/**
 * Damages (or not) a gzip container. The oracle decides from the resulting bytes alone
 * (`checkGzip`) whether the container is still intact; the note says what was done.
 */
export function damageGzip(gz: Uint8Array, rng: Rng, op: DamageOp = rng.pick(DAMAGE_OPS)): ByteMutation {
  const verdict = checkGzip(gz);
  const members = verdict.ok === true ? verdict.members : [];
  const member = members.length > 0 ? rng.pick(members) : undefined;
  switch (op) {
    case 'crc':
    case 'isize': {
      if (!member) return { bytes: gz, note: 'no member to damage' };
      const out = gz.slice();
      const at = member.trailerStart + (op === 'crc' ? 0 : 4) + rng.int(4);
      out[at] = out[at]! ^ (1 << rng.int(8));
      return { bytes: out, note: `${op} of member at ${member.start} (byte ${at})` };
    }
    case 'truncate': {
      const at = rng.int(gz.length);
      return { bytes: gz.slice(0, at), note: `truncate gzip to ${at} of ${gz.length} bytes` };
    }
    case 'trailing-garbage': {
      const garbage = rng.pick([
        new Uint8Array([0x0a]),
        new TextEncoder().encode('junk'),
        new Uint8Array([0x1f]),
        new Uint8Array([0x1f, 0x8b]),
        new Uint8Array([0x1f, 0x8b, 0x08, 0x00]),
        rng.bytes(rng.range(1, 64)),
      ]);
      return { bytes: concatBytes([gz, garbage]), note: `append ${garbage.length} trailing bytes` };
    }
    case 'trailing-zeros':
      return { bytes: concatBytes([gz, new Uint8Array(rng.range(1, 1024))]), note: 'append zero padding' };
    case 'append-member': {
      const extra = rng.chance(0.5)
        ? new Uint8Array(0)
        : new TextEncoder().encode(rng.pick(['\n', '{"type":"header"}\n', 'junk', '{}']));
      return { bytes: concatBytes([gz, gzipMember(extra)]), note: `append member of ${extra.length} bytes` };
    }
    case 'flip-deflate': {
      if (!member || member.trailerStart <= member.dataStart) return { bytes: gz, note: 'no deflate data' };
      const out = gz.slice();
      const at = rng.range(member.dataStart, member.trailerStart - 1);
      out[at] = out[at]! ^ (1 << rng.int(8));
      return { bytes: out, note: `flip deflate byte ${at}` };
    }
    case 'second-magic-only': {
      if (!member) return { bytes: gz, note: 'no member' };
      // A member boundary that lies: the next "member" is only its magic and a header.
      return {
        bytes: concatBytes([
          gz.subarray(0, member.end),
          new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 0xff]),
          gz.subarray(member.end),
        ]),
        note: `bare header after member at ${member.start}`,
      };
    }
    case 'none':
      return { bytes: gz, note: '' };
  }
}
