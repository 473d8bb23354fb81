/** Longest folder name made (file systems take 255 bytes; room is left for a `-N` suffix). */
const NAME_MAX_CHARS = 200;

/**
 * One folder name per trial id, in order: only letters, digits and `_ . @ -` kept (anything else becomes `_`),
 * no leading dot (so no hidden folder, no `.` or `..`: the name stays inside the export folder), at most
 * NAME_MAX_CHARS, and unique (ignoring case, for file systems that do): a name already given gets `-2`, `-3`...
 * Trial ids are the container's word in an exported job only when a folder was copied in by hand, but a
 * name made from one must never write outside its folder or over another trial's.
 */
export function exportFolderNames(trialIds: readonly string[]): string[] {
  const taken = new Set<string>();
  return trialIds.map((id) => {
    const base = id.replace(/[^\w.@-]+/g, '_').replace(/^\.+/, (dots) => '_'.repeat(dots.length)).slice(0, NAME_MAX_CHARS) || '_';
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}`;
    taken.add(name.toLowerCase());
    return name;
  });
}
