// safe_softmax_user_dynamic (SafeSoftmaxUser: Rows with no kept key zeroed by the user: where(keep.any(-1, keepdim=True), softmax(s), 0) after masked_fill(~keep, -inf).), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=157 '--shapes=2x4x16x32,2x4x24x32,2x4x24x32,2x1x16x24->2x4x16x32' '--shapes=1x4x1x32,1x4x7x32,1x4x7x32,1x1x1x7->1x4x1x32' '--shapes=3x4x33x32,3x4x1x32,3x4x1x32,3x1x33x1->3x4x33x32' '--shapes=2x4x5x32,2x4x70x32,2x4x70x32,2x1x5x70->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}} : tensor<?x1x?x?xi1>) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @safe_softmax_user_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @safe_softmax_user_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @safe_softmax_user_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @safe_softmax_user_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> ()>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, 0)>
module {
  func.func @safe_softmax_user_dynamic(%arg0: tensor<?x4x?x32xf32>, %arg1: tensor<?x4x?x32xf32>, %arg2: tensor<?x4x?x32xf32>, %arg3: tensor<?x1x?x?xi1>) -> tensor<?x4x?x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %c32_i64 = arith.constant 32 : i64
    %c1_i64 = arith.constant 1 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_0 = arith.constant 0xFF800000 : f32
    %false = arith.constant false
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_3 = arith.constant 5.6568542494923806 : f64
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_4 = tensor.dim %arg3, %c0 : tensor<?x1x?x?xi1>
    %1 = arith.index_cast %dim_4 : index to i64
    %dim_5 = tensor.dim %arg3, %c3 : tensor<?x1x?x?xi1>
    %2 = arith.index_cast %dim_5 : index to i64
    %dim_6 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xf32>
    %dim_7 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xf32>
    %3 = tensor.empty(%dim_6, %dim_7) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x32xf32>) outs(%3 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %4 = arith.muli %1, %c4_i64 : i64
    %5 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %6 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %6, "unimplemented: dynamic negative broadcast sizes"
    %7 = tensor.empty(%dim_4, %dim) : tensor<?x4x?x32xf32>
    %8 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%7 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %127 = linalg.index 0 : index
      %128 = linalg.index 1 : index
      %129 = linalg.index 2 : index
      %130 = linalg.index 3 : index
      %dim_19 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xf32>
      %131 = arith.cmpi eq, %dim_19, %c1 : index
      %132 = arith.select %131, %c0, %127 : index
      %133 = arith.cmpi eq, %dim, %c1 : index
      %134 = arith.select %133, %c0, %129 : index
      %extracted = tensor.extract %arg0[%132, %128, %134, %130] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %9 = arith.cmpi slt, %4, %c0_i64 : i64
    %10 = arith.select %9, %c1_i64, %4 : i64
    %11 = arith.extui %9 : i1 to i64
    %12 = arith.muli %10, %0 : i64
    %13 = arith.addi %11, %c1_i64 : i64
    %14 = arith.cmpi slt, %0, %c0_i64 : i64
    %15 = arith.select %14, %10, %12 : i64
    %16 = arith.select %14, %13, %11 : i64
    %17 = arith.muli %15, %c32_i64 : i64
    %18 = arith.cmpi sle, %16, %c1_i64 : i64
    cf.assert %18, "must have at most one inferred (negative) dimension"
    %19 = arith.muli %4, %0 : i64
    %20 = arith.muli %19, %c32_i64 : i64
    %21 = arith.divsi %20, %17 : i64
    %22 = arith.select %9, %21, %4 : i64
    %23 = arith.select %14, %21, %0 : i64
    %from_elements = tensor.from_elements %22, %23, %c32_i64 : tensor<3xi64>
    %reshape = tensor.reshape %8(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %24 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %24, "unimplemented: dynamic negative broadcast sizes"
    %25 = tensor.empty(%dim_4, %dim_5) : tensor<?x4x32x?xf32>
    %26 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%25 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %127 = linalg.index 0 : index
      %128 = linalg.index 1 : index
      %129 = linalg.index 2 : index
      %130 = linalg.index 3 : index
      %131 = arith.cmpi eq, %dim_6, %c1 : index
      %132 = arith.select %131, %c0, %127 : index
      %133 = arith.cmpi eq, %dim_7, %c1 : index
      %134 = arith.select %133, %c0, %130 : index
      %extracted = tensor.extract %transposed[%132, %128, %129, %134] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %27 = arith.muli %10, %c32_i64 : i64
    %28 = arith.muli %27, %2 : i64
    %29 = arith.cmpi slt, %2, %c0_i64 : i64
    %30 = arith.select %29, %27, %28 : i64
    %31 = arith.select %29, %13, %11 : i64
    %32 = arith.cmpi sle, %31, %c1_i64 : i64
    cf.assert %32, "must have at most one inferred (negative) dimension"
    %33 = arith.muli %1, %c128_i64 : i64
    %34 = arith.muli %33, %2 : i64
    %35 = arith.divsi %34, %30 : i64
    %36 = arith.select %9, %35, %4 : i64
    %37 = arith.select %29, %35, %2 : i64
    %from_elements_8 = tensor.from_elements %36, %c32_i64, %37 : tensor<3xi64>
    %reshape_9 = tensor.reshape %26(%from_elements_8) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %38 = arith.index_cast %22 : i64 to index
    %39 = arith.index_cast %23 : i64 to index
    %40 = arith.index_cast %37 : i64 to index
    %41 = arith.cmpi eq, %22, %36 : i64
    cf.assert %41, "mismatching contracting dimension"
    %42 = tensor.empty(%38, %39, %40) : tensor<?x?x?xf32>
    %43 = linalg.fill ins(%cst : f32) outs(%42 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %44 = linalg.batch_matmul ins(%reshape, %reshape_9 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%43 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %45 = arith.cmpi slt, %1, %c0_i64 : i64
    %46 = arith.select %45, %c1_i64, %1 : i64
    %47 = arith.extui %45 : i1 to i64
    %48 = arith.muli %46, %c4_i64 : i64
    %49 = arith.muli %48, %0 : i64
    %50 = arith.addi %47, %c1_i64 : i64
    %51 = arith.select %14, %48, %49 : i64
    %52 = arith.select %14, %50, %47 : i64
    %53 = arith.muli %51, %2 : i64
    %54 = arith.addi %52, %c1_i64 : i64
    %55 = arith.select %29, %51, %53 : i64
    %56 = arith.select %29, %54, %52 : i64
    %57 = arith.cmpi sle, %56, %c1_i64 : i64
    cf.assert %57, "must have at most one inferred (negative) dimension"
    %58 = arith.muli %22, %23 : i64
    %59 = arith.muli %58, %37 : i64
    %60 = arith.divsi %59, %55 : i64
    %61 = arith.select %45, %60, %1 : i64
    %62 = arith.select %14, %60, %0 : i64
    %63 = arith.select %29, %60, %2 : i64
    %from_elements_10 = tensor.from_elements %61, %c4_i64, %62, %63 : tensor<4xi64>
    %reshape_11 = tensor.reshape %44(%from_elements_10) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %64 = arith.index_cast %61 : i64 to index
    %65 = arith.index_cast %62 : i64 to index
    %66 = arith.index_cast %63 : i64 to index
    %67 = tensor.empty(%64, %65, %66) : tensor<?x4x?x?xf32>
    %68 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_11 : tensor<?x4x?x?xf32>) outs(%67 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %127 = arith.truncf %cst_3 : f64 to f32
      %128 = arith.divf %in, %127 : f32
      linalg.yield %128 : f32
    } -> tensor<?x4x?x?xf32>
    %dim_12 = tensor.dim %arg3, %c2 : tensor<?x1x?x?xi1>
    %69 = tensor.empty(%dim_4, %dim_12, %dim_5) : tensor<?x1x?x?xi1>
    %70 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg3 : tensor<?x1x?x?xi1>) outs(%69 : tensor<?x1x?x?xi1>) {
    ^bb0(%in: i1, %out: i1):
      %127 = arith.xori %in, %true : i1
      linalg.yield %127 : i1
    } -> tensor<?x1x?x?xi1>
    %71 = arith.cmpi eq, %dim_4, %64 : index
    cf.assert %71, "mismatched size for broadcast"
    %72 = arith.cmpi eq, %dim_12, %65 : index
    cf.assert %72, "mismatched size for broadcast"
    %73 = arith.cmpi eq, %dim_5, %66 : index
    cf.assert %73, "mismatched size for broadcast"
    %74 = tensor.empty(%dim_4, %dim_12, %dim_5) : tensor<?x4x?x?xf32>
    %75 = linalg.generic {indexing_maps = [#map1, #map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%70, %cst_2, %68 : tensor<?x1x?x?xi1>, tensor<f32>, tensor<?x4x?x?xf32>) outs(%74 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: i1, %in_19: f32, %in_20: f32, %out: f32):
      %127 = arith.select %in, %in_19, %in_20 : f32
      linalg.yield %127 : f32
    } -> tensor<?x4x?x?xf32>
    %76 = tensor.empty(%dim_4, %dim_12) : tensor<?x4x?xi64>
    %77 = linalg.fill ins(%c0_i64 : i64) outs(%76 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %78 = tensor.empty(%dim_4, %dim_12) : tensor<?x4x?xf32>
    %79 = linalg.fill ins(%cst_0 : f32) outs(%78 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %80:2 = linalg.generic {indexing_maps = [#map, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%75 : tensor<?x4x?x?xf32>) outs(%79, %77 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_19: i64):
      %127 = linalg.index 3 : index
      %128 = arith.index_cast %127 : index to i64
      %129 = arith.maximumf %in, %out : f32
      %130 = arith.cmpf ogt, %in, %out : f32
      %131 = arith.select %130, %128, %out_19 : i64
      linalg.yield %129, %131 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded = tensor.expand_shape %80#0 [[0], [1], [2, 3]] output_shape [%dim_4, 4, %dim_12, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %81 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%75, %expanded : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%74 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_19: f32, %out: f32):
      %127 = arith.subf %in, %in_19 : f32
      linalg.yield %127 : f32
    } -> tensor<?x4x?x?xf32>
    %82 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%81 : tensor<?x4x?x?xf32>) outs(%74 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %127 = math.exp %in : f32
      linalg.yield %127 : f32
    } -> tensor<?x4x?x?xf32>
    %83 = tensor.empty(%dim_4, %dim_12) : tensor<?x4x?x1xf32>
    %84 = linalg.fill ins(%cst : f32) outs(%83 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %85 = linalg.generic {indexing_maps = [#map, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%82 : tensor<?x4x?x?xf32>) outs(%84 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %127 = arith.addf %in, %out : f32
      linalg.yield %127 : f32
    } -> tensor<?x4x?x1xf32>
    %86 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%82, %85 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%74 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_19: f32, %out: f32):
      %127 = arith.divf %in, %in_19 : f32
      linalg.yield %127 : f32
    } -> tensor<?x4x?x?xf32>
    %87 = tensor.empty(%dim_4, %dim_12) : tensor<?x1x?x1xi1>
    %88 = linalg.fill ins(%false : i1) outs(%87 : tensor<?x1x?x1xi1>) -> tensor<?x1x?x1xi1>
    %89 = linalg.generic {indexing_maps = [#map, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg3 : tensor<?x1x?x?xi1>) outs(%88 : tensor<?x1x?x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %127 = arith.ori %in, %out : i1
      linalg.yield %127 : i1
    } -> tensor<?x1x?x1xi1>
    %90 = linalg.generic {indexing_maps = [#map5, #map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%89, %86, %cst_1 : tensor<?x1x?x1xi1>, tensor<?x4x?x?xf32>, tensor<f32>) outs(%74 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: i1, %in_19: f32, %in_20: f32, %out: f32):
      %127 = arith.select %in, %in_19, %in_20 : f32
      linalg.yield %127 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %6, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %24, "unimplemented: dynamic negative broadcast sizes"
    %91 = tensor.empty(%dim_4, %dim, %dim_5) : tensor<?x4x?x?xf32>
    %92 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%91 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %127 = linalg.index 0 : index
      %128 = linalg.index 1 : index
      %129 = linalg.index 2 : index
      %130 = linalg.index 3 : index
      %131 = arith.cmpi eq, %dim_4, %c1 : index
      %132 = arith.select %131, %c0, %127 : index
      %133 = arith.cmpi eq, %dim_12, %c1 : index
      %134 = arith.select %133, %c0, %129 : index
      %135 = arith.cmpi eq, %dim_5, %c1 : index
      %136 = arith.select %135, %c0, %130 : index
      %extracted = tensor.extract %90[%132, %128, %134, %136] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %93 = arith.muli %15, %2 : i64
    %94 = arith.addi %16, %c1_i64 : i64
    %95 = arith.select %29, %15, %93 : i64
    %96 = arith.select %29, %94, %16 : i64
    %97 = arith.cmpi sle, %96, %c1_i64 : i64
    cf.assert %97, "must have at most one inferred (negative) dimension"
    %98 = arith.muli %19, %2 : i64
    %99 = arith.divsi %98, %95 : i64
    %100 = arith.select %9, %99, %4 : i64
    %101 = arith.select %14, %99, %0 : i64
    %102 = arith.select %29, %99, %2 : i64
    %from_elements_13 = tensor.from_elements %100, %101, %102 : tensor<3xi64>
    %reshape_14 = tensor.reshape %92(%from_elements_13) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %24, "unimplemented: dynamic negative broadcast sizes"
    %103 = tensor.empty(%dim_4, %dim_5) : tensor<?x4x?x32xf32>
    %104 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%103 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %127 = linalg.index 0 : index
      %128 = linalg.index 1 : index
      %129 = linalg.index 2 : index
      %130 = linalg.index 3 : index
      %dim_19 = tensor.dim %arg2, %c0 : tensor<?x4x?x32xf32>
      %131 = arith.cmpi eq, %dim_19, %c1 : index
      %132 = arith.select %131, %c0, %127 : index
      %dim_20 = tensor.dim %arg2, %c2 : tensor<?x4x?x32xf32>
      %133 = arith.cmpi eq, %dim_20, %c1 : index
      %134 = arith.select %133, %c0, %129 : index
      %extracted = tensor.extract %arg2[%132, %128, %134, %130] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %105 = arith.muli %10, %2 : i64
    %106 = arith.select %29, %10, %105 : i64
    %107 = arith.muli %106, %c32_i64 : i64
    cf.assert %32, "must have at most one inferred (negative) dimension"
    %108 = arith.muli %4, %2 : i64
    %109 = arith.muli %108, %c32_i64 : i64
    %110 = arith.divsi %109, %107 : i64
    %111 = arith.select %9, %110, %4 : i64
    %112 = arith.select %29, %110, %2 : i64
    %from_elements_15 = tensor.from_elements %111, %112, %c32_i64 : tensor<3xi64>
    %reshape_16 = tensor.reshape %104(%from_elements_15) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %113 = arith.index_cast %100 : i64 to index
    %114 = arith.index_cast %101 : i64 to index
    %115 = arith.cmpi eq, %100, %111 : i64
    cf.assert %115, "mismatching contracting dimension"
    %116 = arith.cmpi eq, %102, %112 : i64
    cf.assert %116, "mismatching contracting dimension"
    %117 = tensor.empty(%113, %114) : tensor<?x?x32xf32>
    %118 = linalg.fill ins(%cst : f32) outs(%117 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %119 = linalg.batch_matmul ins(%reshape_14, %reshape_16 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%118 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %120 = arith.muli %51, %c32_i64 : i64
    %121 = arith.cmpi sle, %52, %c1_i64 : i64
    cf.assert %121, "must have at most one inferred (negative) dimension"
    %122 = arith.muli %100, %101 : i64
    %123 = arith.muli %122, %c32_i64 : i64
    %124 = arith.divsi %123, %120 : i64
    %125 = arith.select %45, %124, %1 : i64
    %126 = arith.select %14, %124, %0 : i64
    %from_elements_17 = tensor.from_elements %125, %c4_i64, %126, %c32_i64 : tensor<4xi64>
    %reshape_18 = tensor.reshape %119(%from_elements_17) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    return %reshape_18 : tensor<?x4x?x32xf32>
  }
}
