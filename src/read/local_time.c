/* Local wall times to UTC. A fixed offset is subtracted. A named zone is read
 * from its TZif file of the system tz database (RFC 8536): the instants its
 * offset changes and the offset after each, so that daylight saving is right
 * for every date (the users' old scripts applied one offset to a whole run).
 * Times past the file's last transition keep the last offset (Debian's
 * files list transitions up to 2037; the footer's rule for later years is
 * not applied). */
#include "read/local_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NS = 1000000000 };

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* "+HH[:MM]", "+HHMM", "+H", "+Nh" (sign required) or "UTC"/"Z"; false otherwise. */
static bool parse_fixed(const char *s, int64_t *seconds)
{
    if (!strcmp(s, "UTC") || !strcmp(s, "Z") || !strcmp(s, "utc")) {
        *seconds = 0;
        return true;
    }
    if (*s != '+' && *s != '-')
        return false;
    int sign = *s++ == '-' ? -1 : 1;
    int digits = 0, hours = 0, minutes = 0;
    while (is_digit(s[digits]) && digits < 4)
        digits++;
    if (digits == 0 || is_digit(s[digits]))
        return false;
    int value = atoi(s);    /* the digits only: s[digits] is no digit */
    if (digits <= 2) {
        hours = value;
        s += digits;
        if (*s == ':' && is_digit(s[1]) && is_digit(s[2]) && !s[3]) {
            minutes = (s[1] - '0') * 10 + (s[2] - '0');
            s += 3;
        } else if (*s == 'h' && !s[1]) {
            s++;
        }
        if (*s)
            return false;
    } else if (digits == 4 && !s[4]) {
        hours = value / 100;
        minutes = value % 100;
    } else {
        return false;
    }
    if (hours > 14 || minutes > 59)
        return false;
    *seconds = sign * (hours * 3600 + minutes * 60);
    return true;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int64_t be64(const unsigned char *p) { return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4)); }

/* The transitions of a TZif file's data block (64-bit times when wide). */
static bool read_tzif_block(const unsigned char *p, size_t len, bool wide, struct spoor_zone *z)
{
    if (len < 44 || memcmp(p, "TZif", 4))
        return false;
    uint32_t isut = be32(p + 20), isstd = be32(p + 24), leap = be32(p + 28), times = be32(p + 32),
             types = be32(p + 36), chars = be32(p + 40);
    size_t tsize = wide ? 8 : 4;
    size_t need = 44 + (size_t)times * (tsize + 1) + (size_t)types * 6 + chars + (size_t)leap * (tsize + 4) +
                  isstd + isut;
    if (types == 0 || times > 100000 || types > 256 || need > len)
        return false;
    const unsigned char *t = p + 44, *idx = t + (size_t)times * tsize, *info = idx + times;
    z->at = spoor_xmalloc((times ? times : 1) * sizeof *z->at);
    z->offset_after = spoor_xmalloc((times ? times : 1) * sizeof *z->offset_after);
    z->n = times;
    for (size_t i = 0; i < times; i++) {
        if (idx[i] >= types)
            return false;
        z->at[i] = wide ? be64(t + i * 8) : (int32_t)be32(t + i * 4);
        z->offset_after[i] = (int32_t)be32(info + (size_t)idx[i] * 6);
    }
    z->offset_before = (int32_t)be32(info);
    return true;
}

/* Version 2 and later files repeat the data with 64-bit times after the first block. */
static bool read_tzif(const unsigned char *p, size_t len, struct spoor_zone *z)
{
    if (len < 44 || memcmp(p, "TZif", 4))
        return false;
    if (p[4] < '2')
        return read_tzif_block(p, len, false, z);
    uint32_t isut = be32(p + 20), isstd = be32(p + 24), leap = be32(p + 28), times = be32(p + 32),
             types = be32(p + 36), chars = be32(p + 40);
    size_t first = 44 + (size_t)times * 5 + (size_t)types * 6 + chars + (size_t)leap * 8 + isstd + isut;
    return first < len && read_tzif_block(p + first, len - first, true, z);
}

/* Loads zone `name` from the tz database; false when there is no such zone. */
static bool load_named(const char *name, struct spoor_zone *z)
{
    if (!name[0] || name[0] == '/' || strstr(name, "..") || strlen(name) >= sizeof z->name)
        return false;
    const char *dir = getenv("TZDIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "/usr/share/zoneinfo", name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    unsigned char *buf = spoor_xmalloc(1 << 20);
    size_t len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    bool ok = read_tzif(buf, len, z);
    free(buf);
    if (!ok) {
        spoor_zone_close(z);
        return false;
    }
    z->kind = SPOOR_ZONE_NAMED;
    snprintf(z->name, sizeof z->name, "%s", name);
    return true;
}

int spoor_zone_open(const char *text, struct spoor_zone *z, struct spoor_error *err)
{
    memset(z, 0, sizeof *z);
    if (!text)
        return SPOOR_OK;
    if (parse_fixed(text, &z->offset_s)) {
        z->kind = SPOOR_ZONE_FIXED;
        return SPOOR_OK;
    }
    if (load_named(text, z))
        return SPOOR_OK;
    return spoor_fail(err, SPOOR_EUSAGE,
                      "--utc-offset '%s': expected an offset such as +02:00, -0530 or -5h, or a zone of the tz "
                      "database such as Europe/Berlin",
                      text);
}

void spoor_zone_close(struct spoor_zone *z)
{
    free(z->at);
    free(z->offset_after);
    z->at = NULL;
    z->offset_after = NULL;
    z->n = 0;
}

void spoor_zone_describe(const struct spoor_zone *z, char *buf, size_t cap)
{
    if (z->kind == SPOOR_ZONE_ASSUMED_UTC)
        snprintf(buf, cap, "local times taken as UTC (no --utc-offset given)");
    else if (z->kind == SPOOR_ZONE_NAMED)
        snprintf(buf, cap, "local times in %s (tz database, daylight saving per date)", z->name);
    else
        snprintf(buf, cap, "local times at UTC%c%02d:%02d", z->offset_s < 0 ? '-' : '+',
                 (int)(llabs(z->offset_s) / 3600), (int)(llabs(z->offset_s) / 60 % 60));
}

/* The offset in force at UTC second u. */
static int32_t offset_at(const struct spoor_zone *z, int64_t u)
{
    size_t lo = 0, hi = z->n;   /* first transition after u */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (z->at[mid] <= u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == 0 ? z->offset_before : z->offset_after[lo - 1];
}

/* Floor division of ns by a second. */
static int64_t floor_seconds(int64_t ns) { return ns / NS - (ns % NS < 0); }

bool spoor_zone_to_utc(const struct spoor_zone *z, int64_t local_ns, int64_t after_ns, int64_t *utc_ns)
{
    if (z->kind != SPOOR_ZONE_NAMED) {
        *utc_ns = local_ns - z->offset_s * NS;
        return true;
    }
    /* The offsets a day either side are the only ones this wall time can
     * have (a zone changes its offset at most every few weeks). */
    int64_t local = floor_seconds(local_ns);
    int32_t early = offset_at(z, local - 86400), late = offset_at(z, local + 86400);
    bool early_fits = offset_at(z, local - early) == early, late_fits = offset_at(z, local - late) == late;
    if (!early_fits && !late_fits)
        return false;
    int64_t first = local_ns - (int64_t)early * NS, second = local_ns - (int64_t)late * NS;
    if (!late_fits || early == late)
        *utc_ns = first;
    else if (!early_fits)
        *utc_ns = second;
    else    /* the fold: `first` is the earlier of the two (the offset then was larger) */
        *utc_ns = first < second ? (first < after_ns && second >= after_ns ? second : first)
                                 : (second < after_ns && first >= after_ns ? first : second);
    return true;
}
