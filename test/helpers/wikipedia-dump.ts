import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Writes small dumps of Wikipedia's page, redirect, linktarget and pagelinks tables in the real mysqldump format. */

type Value = string | number | null;

const COLUMNS: Record<string, string[]> = {
  page: [
    '`page_id` int(8) unsigned NOT NULL AUTO_INCREMENT',
    '`page_namespace` int(11) NOT NULL DEFAULT 0',
    '`page_title` varbinary(255) NOT NULL DEFAULT \'\'',
    '`page_is_redirect` tinyint(1) unsigned NOT NULL DEFAULT 0',
    '`page_is_new` tinyint(1) unsigned NOT NULL DEFAULT 0',
    '`page_random` double unsigned NOT NULL DEFAULT 0',
    '`page_touched` binary(14) NOT NULL',
    '`page_links_updated` varbinary(14) DEFAULT NULL',
    '`page_latest` int(8) unsigned NOT NULL DEFAULT 0',
    '`page_len` int(8) unsigned NOT NULL DEFAULT 0',
    '`page_content_model` varbinary(32) DEFAULT NULL',
    '`page_lang` varbinary(35) DEFAULT NULL',
  ],
  redirect: [
    '`rd_from` int(8) unsigned NOT NULL DEFAULT 0',
    '`rd_namespace` int(11) NOT NULL DEFAULT 0',
    '`rd_title` varbinary(255) NOT NULL DEFAULT \'\'',
    '`rd_interwiki` varbinary(32) DEFAULT NULL',
    '`rd_fragment` varbinary(255) DEFAULT NULL',
  ],
  linktarget: ['`lt_id` bigint(20) unsigned NOT NULL AUTO_INCREMENT', '`lt_namespace` int(11) NOT NULL', '`lt_title` varbinary(255) NOT NULL'],
  pagelinks: ['`pl_from` int(8) unsigned NOT NULL DEFAULT 0', '`pl_from_namespace` int(11) NOT NULL DEFAULT 0', '`pl_target_id` bigint(20) unsigned NOT NULL'],
};

function sqlValue(v: Value): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return String(v);
  return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/"/g, '\\"').replace(/\n/g, '\\n')}'`;
}

/** The text of one table's dump: header, CREATE TABLE, then extended INSERTs of `perInsert` rows each. */
export function dumpText(table: string, rows: Value[][], perInsert = 3): string {
  const lines = [
    '-- MySQL dump 10.19  Distrib 10.3.39-MariaDB, for debian-linux-gnu (x86_64)',
    '--',
    '-- Host: 10.64.0.1    Database: testwiki',
    '-- ------------------------------------------------------',
    '-- Server version\t10.6.20-MariaDB-log',
    '',
    '/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;',
    '/*!40101 SET NAMES utf8mb4 */;',
    "/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;",
    '',
    '--',
    `-- Table structure for table \`${table}\``,
    '--',
    '',
    `DROP TABLE IF EXISTS \`${table}\`;`,
    '/*!40101 SET @saved_cs_client     = @@character_set_client */;',
    `CREATE TABLE \`${table}\` (`,
    COLUMNS[table]!.map((c) => `  ${c}`).join(',\n') + ',',
    `  PRIMARY KEY (\`${COLUMNS[table]![0]!.split('`')[1]}\`)`,
    ') ENGINE=InnoDB DEFAULT CHARSET=binary ROW_FORMAT=COMPRESSED;',
    '/*!40101 SET character_set_client = @saved_cs_client */;',
    '',
    '--',
    `-- Dumping data for table \`${table}\``,
    '--',
    '',
    `LOCK TABLES \`${table}\` WRITE;`,
    `/*!40000 ALTER TABLE \`${table}\` DISABLE KEYS */;`,
  ];
  for (let i = 0; i < rows.length; i += perInsert) {
    lines.push(`INSERT INTO \`${table}\` VALUES ${rows.slice(i, i + perInsert).map((r) => `(${r.map(sqlValue).join(',')})`).join(',')};`);
  }
  lines.push(`/*!40000 ALTER TABLE \`${table}\` ENABLE KEYS */;`, 'UNLOCK TABLES;', '', '-- Dump completed on 2025-06-23  1:02:03', '');
  return lines.join('\n');
}

export interface WikiPage {
  id: number;
  title: string;
  namespace?: number;
  redirectTo?: [number, string];
}

/** Writes testwiki-20250620-{page,redirect,linktarget,pagelinks}.sql.gz into `dir`; links are [from page id, namespace, title]. */
export function writeWikiDump(dir: string, pages: WikiPage[], links: [number, number, string][]): Record<'page' | 'redirect' | 'linktarget' | 'pagelinks', string> {
  const nsOf = new Map(pages.map((p) => [p.id, p.namespace ?? 0]));
  const pageRows = pages.map((p, i) => [p.id, p.namespace ?? 0, p.title, p.redirectTo ? 1 : 0, 0, 0.123456789 + i / 1000, '20250620010203', '20250620010203', 1000 + p.id, 42, 'wikitext', null]);
  const redirectRows = pages.filter((p) => p.redirectTo).map((p) => [p.id, p.redirectTo![0], p.redirectTo![1], '', '']);
  const targets = new Map<string, number>();
  const targetRows: Value[][] = [];
  const linkRows = links.map(([from, ns, title]) => {
    const key = `${ns}:${title}`;
    if (!targets.has(key)) {
      targets.set(key, targetRows.length + 1);
      targetRows.push([targetRows.length + 1, ns, title]);
    }
    return [from, nsOf.get(from) ?? 0, targets.get(key)!];
  });
  const tables = { page: pageRows, redirect: redirectRows, linktarget: targetRows, pagelinks: linkRows };
  const files = {} as Record<keyof typeof tables, string>;
  for (const [table, rows] of Object.entries(tables)) {
    const file = join(dir, `testwiki-20250620-${table}.sql.gz`);
    writeFileSync(file, gzipSync(dumpText(table, rows as Value[][])));
    files[table as keyof typeof tables] = file;
  }
  return files;
}
