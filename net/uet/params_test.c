// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the device parameter table (params.c), from which the netlink
 * policy, get and set are made: entries that netlink can carry, defaults
 * within their ranges, and the rule between parameters.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <linux/uet.h>

#include "params.h"

/* Names and attributes unique, attributes settable, ranges a u8 or u32
 * attribute can hold, each default inside its range.
 */
static void params_test_table(struct kunit *test)
{
	const struct uet_param_desc *d, *e;
	unsigned int i, j;

	KUNIT_EXPECT_GT(test, uet_param_count, 0U);
	KUNIT_EXPECT_LE(test, uet_param_count, (unsigned int)UET_PARAMS_MAX);
	for (i = 0; i < uet_param_count; i++) {
		d = &uet_param_descs[i];
		KUNIT_EXPECT_LT(test, strlen(d->name), (size_t)UET_PARAM_NAME_LEN);
		KUNIT_EXPECT_GT(test, d->attr, (u16)UET_A_DEV_UDP_PORT);
		KUNIT_EXPECT_LE(test, d->attr, (u16)UET_A_DEV_MAX);
		KUNIT_EXPECT_NE(test, d->attr, (u16)UET_A_DEV_STAT);
		KUNIT_EXPECT_NE(test, d->attr, (u16)UET_A_DEV_CC_PARAM);
		KUNIT_EXPECT_NE(test, d->attr, (u16)UET_A_DEV_PARAM);
		KUNIT_EXPECT_LE(test, d->min, (u64)d->def);
		KUNIT_EXPECT_LE(test, (u64)d->def, d->max);
		KUNIT_EXPECT_LE(test, d->max,
				d->type == UET_PARAM_U8 ? (u64)U8_MAX : (u64)U32_MAX);
		KUNIT_EXPECT_PTR_EQ(test, uet_param_find(d->name), d);
		for (j = 0; j < i; j++) {
			e = &uet_param_descs[j];
			KUNIT_EXPECT_STRNEQ(test, d->name, e->name);
			KUNIT_EXPECT_NE(test, d->attr, e->attr);
		}
	}
	KUNIT_EXPECT_NULL(test, uet_param_find("no_such_param"));
	KUNIT_EXPECT_NULL(test, uet_param_find(""));
}

/* A new device has every default, and a write reads back whole. */
static void params_test_init(struct kunit *test)
{
	const struct uet_param_desc *d;
	struct uet_params p;
	unsigned int i;

	memset(&p, 0xa5, sizeof(p));
	uet_params_init(&p);
	for (i = 0; i < uet_param_count; i++) {
		d = &uet_param_descs[i];
		KUNIT_EXPECT_EQ_MSG(test, uet_param_read(&p, d), d->def,
				    "%s", d->name);
		uet_param_write(&p, d, d->max);
		KUNIT_EXPECT_EQ_MSG(test, (u64)uet_param_read(&p, d),
				    d->max, "%s", d->name);
	}
	KUNIT_EXPECT_EQ(test, p.dscp_data, 63);
	KUNIT_EXPECT_EQ(test, p.dscp_retx, 63);
}

/* rto_min_us above rto_max_us is refused, and blamed on rto_min_us. */
static void params_test_check(struct kunit *test)
{
	const struct uet_param_desc *lo = uet_param_find("rto_min_us");
	const struct uet_param_desc *hi = uet_param_find("rto_max_us");
	const struct uet_param_desc *d = NULL;
	u32 val[UET_PARAMS_MAX];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, lo);
	KUNIT_ASSERT_NOT_NULL(test, hi);
	for (i = 0; i < uet_param_count; i++)
		val[i] = uet_param_descs[i].def;
	KUNIT_EXPECT_NULL(test, uet_params_check(val, &d));
	val[lo - uet_param_descs] = 20000;
	val[hi - uet_param_descs] = 20000;
	KUNIT_EXPECT_NULL(test, uet_params_check(val, &d));
	val[hi - uet_param_descs] = 19999;
	KUNIT_EXPECT_NOT_NULL(test, uet_params_check(val, &d));
	KUNIT_EXPECT_PTR_EQ(test, d, lo);
}

static struct kunit_case params_test_cases[] = {
	KUNIT_CASE(params_test_table),
	KUNIT_CASE(params_test_init),
	KUNIT_CASE(params_test_check),
	{}
};

static struct kunit_suite params_test_suite = {
	.name = "uet_params",
	.test_cases = params_test_cases,
};

kunit_test_suite(params_test_suite);
