#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/text.h"

static int err_vset(struct sb_err *err, int code, int with_errno,
		    const char *fmt, va_list ap)
{
	size_t n;

	if (!err || err->code)
		return code;
	err->code = code;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	if (with_errno) {
		n = strlen(err->msg);
		snprintf(err->msg + n, sizeof(err->msg) - n, ": %s", strerror(-code));
	}
	sb_text_term(err->msg, true); /* it may quote a name from elsewhere */
	return code;
}

int sb_err_set(struct sb_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	code = err_vset(err, code, 0, fmt, ap);
	va_end(ap);
	return code;
}

int sb_err_sys(struct sb_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	code = err_vset(err, code, 1, fmt, ap);
	va_end(ap);
	return code;
}

void sb_err_prefix(struct sb_err *err, const char *fmt, ...)
{
	char pre[256], old[SB_ERR_MSG_MAX];
	va_list ap;

	if (!err || !err->code)
		return;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s%.*s", pre, (int)(sizeof(err->msg) - 1 - strlen(pre)), old);
	sb_text_term(err->msg, true);
}

void sb_err_clear(struct sb_err *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}

int sb_err_exit_code(int code)
{
	switch (code) {
	case 0:
		return SB_EXIT_OK;
	case -EINVAL:
	case -EDOM:
	case -E2BIG:
		return SB_EXIT_USAGE;
	case -EPERM:
	case -EACCES:
		return SB_EXIT_NOROOT;
	case -EBUSY:
	case -EEXIST:
		return SB_EXIT_BUSY;
	case -SB_EREFUSED:
		return SB_EXIT_REFUSED;
	case -SB_EPARTIAL:
		return SB_EXIT_PARTIAL;
	case -EINTR:
		return SB_EXIT_INTERRUPTED;
	default:
		return SB_EXIT_FAIL;
	}
}
