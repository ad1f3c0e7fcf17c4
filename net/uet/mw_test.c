// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the memory-window rules of mw.h, each compliance statement of
 * IBA vol 1, 10.6.7 that rxe_mw.c applies, and the window's bounds and
 * rights at a remote access.
 */
#include <kunit/test.h>

#include "mw.h"

#define MR_IOVA		0x10000ULL
#define MR_LEN		0x4000ULL
#define MR_ALL		(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_MW_BIND | UET_MR_REMOTE)

/* A type 2 bind of the middle of a region that allows everything. */
static struct uet_mw_bind_req uet_mw_good(enum ib_mw_type type)
{
	return (struct uet_mw_bind_req) {
		.type = type,
		.qp_pd_ok = true,
		.has_mr = true,
		.mr_pd_ok = true,
		.mr_access = MR_ALL,
		.mr_iova = MR_IOVA,
		.mr_length = MR_LEN,
		.addr = MR_IOVA + 0x1000,
		.length = 0x1000,
		.access = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ,
	};
}

static void uet_mw_bind_ok_test(struct kunit *test)
{
	struct uet_mw_bind_req b = uet_mw_good(IB_MW_TYPE_2);

	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), 0);
	b = uet_mw_good(IB_MW_TYPE_1);
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), 0);
	/* A type 1 window may be bound again over its binding. */
	b.bound = true;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), 0);
	/* The whole region, and a window ending at its end. */
	b.addr = MR_IOVA;
	b.length = MR_LEN;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), 0);
	b = uet_mw_good(IB_MW_TYPE_2);
	b.access |= IB_ZERO_BASED | IB_ACCESS_REMOTE_ATOMIC;
	b.addr = MR_IOVA + MR_LEN - 8;
	b.length = 8;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), 0);
}

/* Type 1, zero length: unbinding, with or without a region named. */
static void uet_mw_bind_unbind_test(struct kunit *test)
{
	struct uet_mw_bind_req b = uet_mw_good(IB_MW_TYPE_1);

	b.has_mr = false;
	b.length = 0;
	b.bound = true;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), 0);
	/* A length with no region is no bind. */
	b.length = 1;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	/* o10-37.2.40: type 2 is never unbound by a bind. */
	b = uet_mw_good(IB_MW_TYPE_2);
	b.length = 0;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	b.has_mr = false;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
}

static void uet_mw_bind_type_test(struct kunit *test)
{
	struct uet_mw_bind_req b = uet_mw_good(IB_MW_TYPE_1);

	/* o10-36.2.2 */
	b.access |= IB_ZERO_BASED;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	/* o10-37.2.30: a bound type 2 window is not bound again. */
	b = uet_mw_good(IB_MW_TYPE_2);
	b.bound = true;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	/* C10-72: the QP's PD is the window's, for both types (rxe asks
	 * it of type 2 only), unbinding included.
	 */
	b = uet_mw_good(IB_MW_TYPE_2);
	b.qp_pd_ok = false;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	b = uet_mw_good(IB_MW_TYPE_1);
	b.qp_pd_ok = false;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	b.has_mr = false;
	b.length = 0;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	/* The region's PD is the window's, for both types. */
	b = uet_mw_good(IB_MW_TYPE_1);
	b.mr_pd_ok = false;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
}

static void uet_mw_bind_region_test(struct kunit *test)
{
	struct uet_mw_bind_req b = uet_mw_good(IB_MW_TYPE_2);

	/* C10-73 */
	b.mr_access &= ~IB_ACCESS_MW_BIND;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	/* C10-74: write and atomic need the region's local write; read
	 * does not.
	 */
	b = uet_mw_good(IB_MW_TYPE_2);
	b.mr_access &= ~IB_ACCESS_LOCAL_WRITE;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	b.access = IB_ACCESS_REMOTE_ATOMIC;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	b.access = IB_ACCESS_REMOTE_READ;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), 0);
	/* Rights a window cannot have. */
	b = uet_mw_good(IB_MW_TYPE_2);
	b.access |= IB_ACCESS_MW_BIND;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	b.access = IB_ACCESS_REMOTE_READ | IB_ACCESS_ON_DEMAND;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	/* Local write is ignored, as rxe does. */
	b.access = IB_ACCESS_REMOTE_READ | IB_ACCESS_LOCAL_WRITE;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), 0);
}

/* C10-75, at each edge, and with lengths that would wrap. */
static void uet_mw_bind_bounds_test(struct kunit *test)
{
	struct uet_mw_bind_req b = uet_mw_good(IB_MW_TYPE_2);

	b.addr = MR_IOVA - 1;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	b.addr = MR_IOVA + MR_LEN - 0x1000 + 1;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	b.addr = MR_IOVA + 1;
	b.length = U64_MAX;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	b.addr = U64_MAX;
	b.length = 2;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
	/* Zero-based: only the length counts, against the region's. */
	b = uet_mw_good(IB_MW_TYPE_2);
	b.access |= IB_ZERO_BASED;
	b.length = MR_LEN;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), 0);
	b.length = MR_LEN + 1;
	KUNIT_EXPECT_EQ(test, uet_mw_bind_check(&b), -EINVAL);
}

/* o10-37.2.26 */
static void uet_mw_inv_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, uet_mw_inv_check(IB_MW_TYPE_2, true), 0);
	KUNIT_EXPECT_EQ(test, uet_mw_inv_check(IB_MW_TYPE_2, false), -EINVAL);
	KUNIT_EXPECT_EQ(test, uet_mw_inv_check(IB_MW_TYPE_1, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, uet_mw_inv_check(IB_MW_TYPE_1, false), -EINVAL);
}

static void uet_mw_access_test(struct kunit *test)
{
	int rw = IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE;
	u64 a = 0x2000, iova = 0;

	KUNIT_EXPECT_EQ(test, uet_mw_access_check(rw, a, 0x100,
						  IB_ACCESS_REMOTE_WRITE,
						  a + 0x10, 0x20, &iova), 0);
	KUNIT_EXPECT_EQ(test, iova, a + 0x10);
	/* The whole window, and an empty access at its end. */
	KUNIT_EXPECT_EQ(test, uet_mw_access_check(rw, a, 0x100,
						  IB_ACCESS_REMOTE_READ, a,
						  0x100, &iova), 0);
	KUNIT_EXPECT_EQ(test, uet_mw_access_check(rw, a, 0x100,
						  IB_ACCESS_REMOTE_READ,
						  a + 0x100, 0, &iova), 0);
	/* One byte out on either side. */
	KUNIT_EXPECT_EQ(test, uet_mw_access_check(rw, a, 0x100,
						  IB_ACCESS_REMOTE_READ, a - 1,
						  0x10, &iova), -EFAULT);
	KUNIT_EXPECT_EQ(test, uet_mw_access_check(rw, a, 0x100,
						  IB_ACCESS_REMOTE_READ, a + 1,
						  0x100, &iova), -EFAULT);
	KUNIT_EXPECT_EQ(test, uet_mw_access_check(rw, a, 0x100,
						  IB_ACCESS_REMOTE_READ, a + 1,
						  U64_MAX, &iova), -EFAULT);
	/* A right the window lacks; no right at all; an unbound window. */
	KUNIT_EXPECT_EQ(test, uet_mw_access_check(IB_ACCESS_REMOTE_READ, a,
						  0x100, IB_ACCESS_REMOTE_WRITE,
						  a, 8, &iova), -EACCES);
	KUNIT_EXPECT_EQ(test, uet_mw_access_check(rw, a, 0x100, 0, a, 8,
						  &iova), -EACCES);
	KUNIT_EXPECT_EQ(test, uet_mw_access_check(rw, 0, 0,
						  IB_ACCESS_REMOTE_READ, 0, 0,
						  &iova), -EACCES);
	/* Zero-based: addresses are offsets into the window. */
	KUNIT_EXPECT_EQ(test, uet_mw_access_check(rw | IB_ZERO_BASED, a,
						  0x100, IB_ACCESS_REMOTE_READ,
						  0x10, 0x20, &iova), 0);
	KUNIT_EXPECT_EQ(test, iova, a + 0x10);
	KUNIT_EXPECT_EQ(test, uet_mw_access_check(rw | IB_ZERO_BASED, a,
						  0x100, IB_ACCESS_REMOTE_READ,
						  a, 0x20, &iova), -EFAULT);
}

static struct kunit_case uet_mw_cases[] = {
	KUNIT_CASE(uet_mw_bind_ok_test),
	KUNIT_CASE(uet_mw_bind_unbind_test),
	KUNIT_CASE(uet_mw_bind_type_test),
	KUNIT_CASE(uet_mw_bind_region_test),
	KUNIT_CASE(uet_mw_bind_bounds_test),
	KUNIT_CASE(uet_mw_inv_test),
	KUNIT_CASE(uet_mw_access_test),
	{}
};

static struct kunit_suite uet_mw_suite = {
	.name = "uet_mw",
	.test_cases = uet_mw_cases,
};

kunit_test_suite(uet_mw_suite);
