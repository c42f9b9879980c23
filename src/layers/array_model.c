/* See array_model.h. */
#include "layers/array_model.h"

void sb_pl_array(const struct sb_pl_below *b, double d, double r, double q, struct sb_pl_model *m)
{
	unsigned k;

	for (k = 0; k < SB_PL_NKEYS; k++)
		m->base.v[k] = b->mean.v[k];
	m->exp.v[0] = d * b->min.v[0];
	m->exp.v[1] = r * b->mean.v[1];
	m->exp.v[2] = q * b->mean.v[2];
	for (k = 0; k < SB_PL_NKEYS; k++)
		if (b->sum.v[k] < 0)
			m->exp.v[k] = -1;
}
