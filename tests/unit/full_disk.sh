# A real full disk for tests/unit/store_full_disk.test.ts, inside `unshare -rm` (a user and mount namespace, so
# no privileges are needed): opgate run into a 512 KiB tmpfs until SQLite reports SQLITE_FULL, then the tmpfs
# grown and the run resumed. Writes the exit codes, the output and copies of the database to $OUT.
set -u
mnt=$(mktemp -d)
mount -t tmpfs -o size=512k tmpfs "$mnt" || exit 97
cd "$REPO"
OPGATE_LOG_RESULTS=1 node bin/opgate.mjs run $ARGS --db "$mnt/r.db" --json > "$OUT/first.out" 2> "$OUT/first.err"
echo "first=$? exited=$(date +%s%3N)" > "$OUT/codes"
cp "$mnt/r.db" "$OUT/stopped.db"
[ -f "$mnt/r.db-wal" ] && cp "$mnt/r.db-wal" "$OUT/stopped.db-wal"
mount -o remount,size=64m "$mnt"
node bin/opgate.mjs run $ARGS --db "$mnt/r.db" --json --resume > "$OUT/resume.out" 2> "$OUT/resume.err"
echo "resume=$?" >> "$OUT/codes"
cp "$mnt/r.db" "$OUT/resumed.db"
