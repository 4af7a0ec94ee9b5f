/*
 * double and float: the values IEEE 754 arithmetic and a conversion to an
 * integer trip over (NaN, the infinities, a negative zero, subnormals, the
 * extremes, the first value an int or a long long cannot hold).  All
 * constants; a float's are exact in the double slot they are kept in.
 */
#include <float.h>
#include <math.h>

#include "datatype.h"

static const struct tb_value double_values[] = {
	{ .name = "ZERO", .constant.d = 0.0, .desc = "0.0" },
	{ .name = "NEG_ZERO", .constant.d = -0.0,
	  .desc = "-0.0: equal to 0.0, but its sign is set" },
	{ .name = "ONE", .constant.d = 1.0, .desc = "1.0" },
	{ .name = "NEG_ONE", .constant.d = -1.0, .desc = "-1.0" },
	{ .name = "HALF", .constant.d = 0.5, .desc = "0.5: no integer" },
	{ .name = "NAN", .constant.d = NAN,
	  .desc = "a quiet NaN: unequal to everything, itself included" },
	{ .name = "INF", .constant.d = INFINITY, .desc = "+infinity" },
	{ .name = "NEG_INF", .constant.d = -INFINITY, .desc = "-infinity" },
	{ .name = "MAX", .constant.d = DBL_MAX,
	  .desc = "DBL_MAX, about 1.8e308: doubled, it overflows" },
	{ .name = "NEG_MAX", .constant.d = -DBL_MAX, .desc = "-DBL_MAX" },
	{ .name = "MIN_NORMAL", .constant.d = DBL_MIN,
	  .desc = "DBL_MIN, about 2.2e-308: the smallest normal" },
	{ .name = "SUBNORMAL", .constant.d = DBL_TRUE_MIN,
	  .desc = "DBL_TRUE_MIN, about 4.9e-324: the smallest above 0, subnormal" },
	{ .name = "EPSILON", .constant.d = DBL_EPSILON,
	  .desc = "DBL_EPSILON, 2^-52: 1.0 + it is the next double" },
	{ .name = "INT_MAX_PLUS_1", .constant.d = 2147483648.0,
	  .desc = "2^31: converted to an int, undefined" },
	{ .name = "LLONG_MAX_PLUS_1", .constant.d = 9223372036854775808.0,
	  .desc = "2^63: converted to a long long, undefined" },
	{ 0 },
};

TB_DATATYPE(tb_type_double) = {
	.name = "double", .ctype = "double", .values = double_values,
};

static const struct tb_value float_values[] = {
	{ .name = "ZERO", .constant.d = 0.0f, .desc = "0.0f" },
	{ .name = "NEG_ZERO", .constant.d = -0.0f,
	  .desc = "-0.0f: equal to 0.0f, but its sign is set" },
	{ .name = "ONE", .constant.d = 1.0f, .desc = "1.0f" },
	{ .name = "NEG_ONE", .constant.d = -1.0f, .desc = "-1.0f" },
	{ .name = "HALF", .constant.d = 0.5f, .desc = "0.5f: no integer" },
	{ .name = "NAN", .constant.d = NAN,
	  .desc = "a quiet NaN: unequal to everything, itself included" },
	{ .name = "INF", .constant.d = INFINITY, .desc = "+infinity" },
	{ .name = "NEG_INF", .constant.d = -INFINITY, .desc = "-infinity" },
	{ .name = "MAX", .constant.d = FLT_MAX,
	  .desc = "FLT_MAX, about 3.4e38: doubled, it overflows" },
	{ .name = "NEG_MAX", .constant.d = -FLT_MAX, .desc = "-FLT_MAX" },
	{ .name = "MIN_NORMAL", .constant.d = FLT_MIN,
	  .desc = "FLT_MIN, about 1.2e-38: the smallest normal" },
	{ .name = "SUBNORMAL", .constant.d = FLT_TRUE_MIN,
	  .desc = "FLT_TRUE_MIN, about 1.4e-45: the smallest above 0, subnormal" },
	{ .name = "EPSILON", .constant.d = FLT_EPSILON,
	  .desc = "FLT_EPSILON, 2^-23: 1.0f + it is the next float" },
	{ .name = "INT_MAX_PLUS_1", .constant.d = 2147483648.0f,
	  .desc = "2^31: converted to an int, undefined" },
	{ 0 },
};

TB_DATATYPE(tb_type_float) = {
	.name = "float", .ctype = "float", .values = float_values,
};
