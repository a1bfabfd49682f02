// Numerics of the sample runtime's ops against hand-computed values, and view semantics.
#include <catch2/catch.hpp>
#include <cmath>

#include "tlrt/json.hpp"
#include "tlrt/md5.hpp"
#include "tlrt/ops.hpp"

using namespace tlrt;

static std::vector<double> vals(const Tensor& t) {
  return t.values();
}

TEST_CASE("broadcasting add and dtype promotion") {
  Tensor a = Tensor::from({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = Tensor::from({3}, {10, 20, 30});
  Tensor c = add(a, b);
  CHECK(c.sizes() == Shape{2, 3});
  CHECK(vals(c) == std::vector<double>{11, 22, 33, 14, 25, 36});
  Tensor i = Tensor::from({3}, {1, 2, 3}, DType::i64);
  CHECK(add(i, i).dtype() == DType::i64);
  CHECK(add(i, b).dtype() == DType::f32);
  CHECK(div(i, i).dtype() == DType::f32);  // true division
  CHECK(vals(div(Tensor::from({2}, {1, 3}, DType::i64), Tensor::from({2}, {2, 2}, DType::i64))) ==
        std::vector<double>{0.5, 1.5});
  CHECK_THROWS_WITH(add(a, Tensor::from({2}, {1, 2})), Catch::Contains("cannot be broadcast"));
}

TEST_CASE("f32 results round like float arithmetic") {
  Tensor a = Tensor::from({1}, {0.1});
  CHECK(a.flat(0) == static_cast<double>(0.1f));
  Tensor d = Tensor::from({1}, {0.1}, DType::f64);
  CHECK(d.flat(0) == 0.1);
}

TEST_CASE("comparisons, where and unary ops") {
  Tensor a = Tensor::from({4}, {-1, 0, 2, 3});
  Tensor b = Tensor::from({4}, {0, 0, 1, 5});
  CHECK(gt(a, b).dtype() == DType::b8);
  CHECK(vals(gt(a, b)) == std::vector<double>{0, 0, 1, 0});
  CHECK(vals(eq(a, b)) == std::vector<double>{0, 1, 0, 0});
  CHECK(vals(le(a, b)) == std::vector<double>{1, 1, 0, 1});
  CHECK(vals(where(gt(a, b), a, b)) == std::vector<double>{0, 0, 2, 5});
  CHECK(vals(relu(a)) == std::vector<double>{0, 0, 2, 3});
  CHECK(vals(neg(a)) == std::vector<double>{1, 0, -2, -3});
  // gelu(1) = 0.5 * (1 + erf(1/sqrt 2)) = 0.841344746...
  CHECK(gelu(Tensor::from({1}, {1.0}, DType::f64)).flat(0) ==
        Approx(0.8413447460685429).epsilon(1e-12));
  CHECK(tanh(Tensor::from({1}, {0.5}, DType::f64)).flat(0) == Approx(0.46211715726000974));
  CHECK(exp(Tensor::from({1}, {1.0}, DType::f64)).flat(0) == Approx(2.718281828459045));
  CHECK(vals(pow(Tensor::from({2}, {3, -2}), 2.0)) == std::vector<double>{9, 4});
}

TEST_CASE("reductions over dims") {
  Tensor a = Tensor::from({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(vals(sum(a)) == std::vector<double>{21});
  CHECK(sum(a).ndim() == 0);
  CHECK(vals(sum(a, {0})) == std::vector<double>{5, 7, 9});
  CHECK(vals(sum(a, {1})) == std::vector<double>{6, 15});
  CHECK(sum(a, {1}, true).sizes() == Shape{2, 1});
  CHECK(vals(mean(a, {-1})) == std::vector<double>{2, 5});
  CHECK(vals(amax(a, {0})) == std::vector<double>{4, 5, 6});
  CHECK(item(sum(a)) == 21);
  CHECK_THROWS_WITH(item(a), Catch::Contains("cannot be converted to Scalar"));
  CHECK_THROWS_WITH(mean(Tensor::from({2}, {1, 2}, DType::i64)), Catch::Contains("floating"));
  CHECK_THROWS_WITH(sum(a, {2}), Catch::Contains("Dimension out of range"));
}

TEST_CASE("softmax and layer_norm") {
  Tensor x = Tensor::from({1, 3}, {1, 2, 3}, DType::f64);
  Tensor s = softmax(x, -1);
  // e^k / (e + e^2 + e^3)
  double z = std::exp(1) + std::exp(2) + std::exp(3);
  CHECK(s.flat(0) == Approx(std::exp(1) / z));
  CHECK(s.flat(2) == Approx(std::exp(3) / z));
  Tensor ln = layer_norm(Tensor::from({1, 4}, {1, 2, 3, 4}, DType::f64),
                         Tensor::from({4}, {1, 1, 1, 1}, DType::f64),
                         Tensor::from({4}, {0, 0, 0, 0}, DType::f64), 0.0);
  // mean 2.5, variance 1.25: (x - 2.5) / sqrt(1.25)
  CHECK(ln.flat(0) == Approx(-1.5 / std::sqrt(1.25)));
  CHECK(ln.flat(3) == Approx(1.5 / std::sqrt(1.25)));
}

TEST_CASE("matmul 2-D and batched") {
  Tensor a = Tensor::from({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = Tensor::from({3, 2}, {7, 8, 9, 10, 11, 12});
  CHECK(vals(matmul(a, b)) == std::vector<double>{58, 64, 139, 154});
  // a^T through a view (non-contiguous strides) times a: [[17,22,27],[22,29,36],[27,36,45]]
  CHECK(vals(matmul(transpose(a, 0, 1), a)) ==
        std::vector<double>{17, 22, 27, 22, 29, 36, 27, 36, 45});
  Tensor batch = reshape(arange(12, DType::f32), {2, 2, 3});
  Tensor out = matmul(batch, b);
  CHECK(out.sizes() == Shape{2, 2, 2});
  // second batch row 0 is [6,7,8]: [6*7+7*9+8*11, 6*8+7*10+8*12] = [193, 214]
  CHECK(out.at({1, 0, 0}) == 193);
  CHECK(out.at({1, 0, 1}) == 214);
  CHECK_THROWS_WITH(matmul(a, a), Catch::Contains("cannot be multiplied (2x3 and 2x3)"));
}

TEST_CASE("views share storage, reshape copies only when needed") {
  Tensor a = Tensor::from({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor t = transpose(a, 0, 1);
  CHECK(t.sizes() == Shape{3, 2});
  CHECK(t.strides() == Shape{1, 3});
  CHECK(&t.storage() == &a.storage());
  CHECK(t.is_view());
  CHECK_FALSE(t.is_contiguous());
  CHECK(vals(t) == std::vector<double>{1, 4, 2, 5, 3, 6});
  Tensor s = slice(a, 1, 1, 3);
  CHECK(s.offset() == 1);
  CHECK(vals(s) == std::vector<double>{2, 3, 5, 6});
  CHECK(&view(a, {3, 2}).storage() == &a.storage());
  CHECK_THROWS_WITH(view(t, {6}), Catch::Contains("Use .reshape"));
  Tensor r = reshape(t, {6});
  CHECK(&r.storage() != &a.storage());
  CHECK(vals(r) == std::vector<double>{1, 4, 2, 5, 3, 6});
  CHECK(permute(reshape(arange(24), {2, 3, 4}), {2, 0, 1}).sizes() == Shape{4, 2, 3});
  CHECK(slice(arange(10), 0, 1, 10, 3).sizes() == Shape{3});
  CHECK(vals(slice(arange(10), 0, 1, 10, 3)) == std::vector<double>{1, 4, 7});
}

TEST_CASE("cat, split and embedding") {
  Tensor a = Tensor::from({1, 2}, {1, 2});
  Tensor b = Tensor::from({2, 2}, {3, 4, 5, 6});
  Tensor c = cat({a, b}, 0);
  CHECK(vals(c) == std::vector<double>{1, 2, 3, 4, 5, 6});
  auto parts = split(c, 2, 0);
  REQUIRE(parts.size() == 2);
  CHECK(vals(parts[1]) == std::vector<double>{5, 6});
  CHECK_THROWS_WITH(cat({a, Tensor::from({1, 3}, {1, 2, 3})}, 0),
                    Catch::Contains("Sizes of tensors must match"));
  Tensor w = Tensor::from({3, 2}, {0, 1, 10, 11, 20, 21});
  Tensor idx = Tensor::from({2}, {2, 0}, DType::i64);
  CHECK(vals(embedding(w, idx)) == std::vector<double>{20, 21, 0, 1});
  CHECK_THROWS_WITH(embedding(w, Tensor::from({1}, {3}, DType::i64)),
                    Catch::Contains("out of bounds"));
}

TEST_CASE("runtime MD5 matches RFC 1321 test vectors") {
  CHECK(md5_hex("") == "d41d8cd98f00b204e9800998ecf8427e");
  CHECK(md5_hex("abc") == "900150983cd24fb0d6963f7d28e17f72");
  CHECK(
      md5_hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890") ==
      "57edf4a22be3c955ac49da2e2107b67a");
}

TEST_CASE("JSON dumps like Python's json.dumps") {
  Json o = Json::object();
  o.set("a", 1)
      .set("b", Json::list(std::vector<int>{1, 2}))
      .set("s", "x\"\n\xc3\xa9")
      .set("f", 2.0)
      .set("n", nullptr);
  CHECK(o.dump() == R"({"a": 1, "b": [1, 2], "s": "x\"\n\u00e9", "f": 2.0, "n": null})");
  Json c = Json::object();
  c.set("name", "dynamo").set("args", Json(Json::Object{{"compile_id", Json("0/0")}}));
  CHECK(c.dump_indent0() == "{\n\"name\": \"dynamo\",\n\"args\": {\n\"compile_id\": \"0/0\"\n}\n}");
}
