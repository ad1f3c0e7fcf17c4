/* SPDX-License-Identifier: GPL-2.0 */
/*
 * min() and friends as the kernel computes them: each argument evaluated
 * once, into a variable of its own (nested uses cannot capture each
 * other's), compared after the usual conversions (min(), max()) or as
 * @type (min_t(), max_t(), clamp_t()). The kernel build checks their
 * signedness; these do not.
 */
#ifndef _SIM_LINUX_MINMAX_H
#define _SIM_LINUX_MINMAX_H

#define __sim_paste2(a, b)	a##b
#define __sim_paste(a, b)	__sim_paste2(a, b)
#define __sim_id(prefix)	__sim_paste(__sim_##prefix, __COUNTER__)

#define __sim_op_min		<
#define __sim_op_max		>

#define __sim_cmp_once(op, type, x, y, ux, uy) ({	\
	type ux = (x);					\
	type uy = (y);					\
	ux __sim_op_##op uy ? ux : uy; })

#define __sim_cmp(op, type, x, y)			\
	__sim_cmp_once(op, type, x, y, __sim_id(a), __sim_id(b))

#define min(x, y)		__sim_cmp(min, __auto_type, x, y)
#define max(x, y)		__sim_cmp(max, __auto_type, x, y)
#define min_t(type, x, y)	__sim_cmp(min, type, x, y)
#define max_t(type, x, y)	__sim_cmp(max, type, x, y)

#define __sim_clamp_once(type, val, lo, hi, uv, ul, uh) ({	\
	type uv = (val);					\
	type ul = (lo);						\
	type uh = (hi);						\
	uv >= uh ? uh : (uv <= ul ? ul : uv); })

#define clamp_t(type, val, lo, hi)					\
	__sim_clamp_once(type, val, lo, hi, __sim_id(v), __sim_id(l),	\
			 __sim_id(h))

#define __sim_swap(a, b, ut) do {	\
	__auto_type ut = (a);		\
	(a) = (b);			\
	(b) = ut;			\
} while (0)

#define swap(a, b)	__sim_swap(a, b, __sim_id(t))

#endif /* _SIM_LINUX_MINMAX_H */
