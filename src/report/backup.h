/* `compare --backup-size SIZE`: how long a backup of SIZE takes at the
 * copy suite's speeds, per stack and tool. */
#ifndef SB_REPORT_BACKUP_H
#define SB_REPORT_BACKUP_H

#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

/* "3 h 12 min", "2 d 4 h", "45 min 10 s", "12 s" for s seconds. */
void sb_backup_duration(double s, char *buf, size_t len);

/* One block: for every stack (by name, repetitions pooled: the median) with
 * copy figures, per tool, the time for `bytes` at the photo tree's and the
 * large file's MB/s, into the stack and out of it. Returns the number of
 * stacks that had copy figures (0: a line saying none had). */
unsigned sb_backup_render(struct json_object *const *res, unsigned n, uint64_t bytes, FILE *f);

#endif
