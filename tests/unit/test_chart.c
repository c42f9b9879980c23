/* The chart files are real: PNG that cairo reads back with the expected
 * size and drawn pixels, SVG with an <svg> root closed at the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cairo.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core/layer.h"
#include "report/chart.h"
#include "report/results.h"

static char tmpdir[] = "/tmp/sb-test-chart.XXXXXX";
static struct json_object *res[3];

static int setup(void **state)
{
	const char *names[] = { "results/ext4.json", "results/luks4096.json", "rep/ext4-2runs.json" };
	const char *src = getenv("SB_SOURCE_DIR");
	char path[4096];
	struct sb_err err = { 0 };

	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/tests/golden/%s", src && *src ? src : SB_SOURCE_DIR, names[i]);
		if (sb_results_read(path, &res[i], &err) < 0)
			return -1;
		sb_layer_label_results(res[i], NULL);   /* as compare's loader does */
	}
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[256];

	for (int i = 0; i < 3; i++)
		json_object_put(res[i]);
	/* drop cairo's and fontconfig's caches so LeakSanitizer sees only ours */
	cairo_debug_reset_static_data();
	{
		/* FcFini through dlsym: fontconfig is cairo's dependency, not ours */
		void (*fcfini)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "FcFini");
		if (fcfini)
			fcfini();
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_png(void **state)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	struct sb_table_opts o = { .columns = "setup,write,rewrite,read,seeks" };
	struct sb_err err = { 0 };
	unsigned char head[8];
	char path[512];
	cairo_surface_t *s;
	unsigned char *px;
	int w, h, stride, x, y, colored = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/t.png", tmpdir);
	assert_int_equal(sb_chart_write(res, 3, &o, path, &err), 0);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(head, 1, 8, f), 8);
	fclose(f);
	assert_memory_equal(head, sig, 8);
	s = cairo_image_surface_create_from_png(path);
	assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	w = cairo_image_surface_get_width(s);
	h = cairo_image_surface_get_height(s);
	assert_true(w >= 640 && h >= 300);
	/* bars are drawn: a good share of pixels are neither white nor grey */
	cairo_surface_flush(s);
	px = cairo_image_surface_get_data(s);
	stride = cairo_image_surface_get_stride(s);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			uint32_t p = *(uint32_t *)(px + y * stride + x * 4);
			int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
			colored += abs(r - g) > 40 || abs(g - b) > 40;
		}
	assert_true(colored > w * h / 50);
	cairo_surface_destroy(s);
}

/* The legend square of row r (one unit panel): its colour as 0xRRGGBB. */
static uint32_t legend_px(const char *path, int r)
{
	cairo_surface_t *s = cairo_image_surface_create_from_png(path);
	uint32_t p;

	assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	cairo_surface_flush(s);
	p = *(uint32_t *)(cairo_image_surface_get_data(s) + (66 + 300 + 4 + 7 + 22 * r) *
			  cairo_image_surface_get_stride(s) + (80 + 7) * 4);
	cairo_surface_destroy(s);
	return p & 0xffffff;
}

/* A stack keeps its colour whatever its row. */
static void test_stable_colour(void **state)
{
	struct sb_table_opts o = { .columns = "write" };
	struct json_object *ab[2] = { res[0], res[1] }, *ba[2] = { res[1], res[0] };
	struct sb_err err = { 0 };
	char p1[512], p2[512];

	snprintf(p1, sizeof(p1), "%s/ab.png", tmpdir);
	snprintf(p2, sizeof(p2), "%s/ba.png", tmpdir);
	assert_int_equal(sb_chart_write(ab, 2, &o, p1, &err), 0);
	assert_int_equal(sb_chart_write(ba, 2, &o, p2, &err), 0);
	assert_int_equal(legend_px(p1, 0), legend_px(p2, 1));  /* ext4 */
	assert_int_equal(legend_px(p1, 1), legend_px(p2, 0));  /* luks4096 */
	assert_int_not_equal(legend_px(p1, 0), 0xffffff);
}

static void test_svg(void **state)
{
	struct sb_table_opts o = { 0 };
	struct sb_err err = { 0 };
	char path[512], *buf;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/t.svg", tmpdir);
	assert_int_equal(sb_chart_write(res, 3, &o, path, &err), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	buf = calloc(1, 4 << 20);
	n = fread(buf, 1, (4 << 20) - 1, f);
	fclose(f);
	assert_true(n > 100);
	assert_true(!strncmp(buf, "<?xml", 5));
	assert_non_null(strstr(buf, "<svg"));
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	assert_string_equal(buf + n - 6, "</svg>");
	assert_ptr_equal(strstr(buf, "</svg>"), buf + n - 6);  /* one root, closed once */
	free(buf);
}

static void test_bad_ext(void **state)
{
	struct sb_table_opts o = { 0 };
	struct sb_err err = { 0 };
	char path[512];

	snprintf(path, sizeof(path), "%s/t.pdf", tmpdir);
	assert_int_equal(sb_chart_write(res, 3, &o, path, &err), -EINVAL);
	assert_non_null(strstr(err.msg, ".svg or .png"));
	o.columns = "setup,cipher";
	snprintf(path, sizeof(path), "%s/t.svg", tmpdir);
	sb_err_clear(&err);
	assert_int_equal(sb_chart_write(res, 3, &o, path, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "no numeric column"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_png),
		cmocka_unit_test(test_stable_colour),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_bad_ext),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
