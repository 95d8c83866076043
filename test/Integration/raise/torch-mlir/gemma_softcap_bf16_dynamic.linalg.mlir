// gemma_softcap_bf16_dynamic (GemmaSoftcap), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=55 '--shapes=2x4x16x32,2x4x24x32,2x4x24x32->2x4x16x32' '--shapes=1x4x1x32,1x4x7x32,1x4x7x32->1x4x1x32' '--shapes=3x4x33x32,3x4x1x32,3x4x1x32->3x4x33x32' '--shapes=2x4x5x32,2x4x70x32,2x4x70x32->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.1767{{[0-9]+}} : f32, softcap = 5.000000e+01 : f32}
// CHECK-NOT: linalg.
// PROOF: @gemma_softcap_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @gemma_softcap_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @gemma_softcap_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @gemma_softcap_bf16_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @gemma_softcap_bf16_dynamic(%arg0: tensor<?x4x?x32xbf16>, %arg1: tensor<?x4x?x32xbf16>, %arg2: tensor<?x4x?x32xbf16>) -> tensor<?x4x?x32xbf16> {
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32_i64 = arith.constant 32 : i64
    %c1_i64 = arith.constant 1 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 0.17677669529663689 : f64
    %c128_i64 = arith.constant 128 : i64
    %cst_2 = arith.constant 5.000000e+01 : bf16
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xbf16>
    %0 = arith.index_cast %dim : index to i64
    %dim_3 = tensor.dim %arg2, %c0 : tensor<?x4x?x32xbf16>
    %1 = arith.index_cast %dim_3 : index to i64
    %dim_4 = tensor.dim %arg2, %c2 : tensor<?x4x?x32xbf16>
    %2 = arith.index_cast %dim_4 : index to i64
    %dim_5 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xbf16>
    %dim_6 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xbf16>
    %3 = tensor.empty(%dim_5, %dim_6) : tensor<?x4x32x?xbf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x32xbf16>) outs(%3 : tensor<?x4x32x?xbf16>) permutation = [0, 1, 3, 2] 
    %4 = arith.muli %1, %c4_i64 : i64
    %5 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %6 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %6, "unimplemented: dynamic negative broadcast sizes"
    %7 = tensor.empty(%dim_3, %dim) : tensor<?x4x?x32xbf16>
    %8 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%7 : tensor<?x4x?x32xbf16>) {
    ^bb0(%out: bf16):
      %126 = linalg.index 0 : index
      %127 = linalg.index 1 : index
      %128 = linalg.index 2 : index
      %129 = linalg.index 3 : index
      %dim_17 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xbf16>
      %130 = arith.cmpi eq, %dim_17, %c1 : index
      %131 = arith.select %130, %c0, %126 : index
      %132 = arith.cmpi eq, %dim, %c1 : index
      %133 = arith.select %132, %c0, %128 : index
      %extracted = tensor.extract %arg0[%131, %127, %133, %129] : tensor<?x4x?x32xbf16>
      linalg.yield %extracted : bf16
    } -> tensor<?x4x?x32xbf16>
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
    %reshape = tensor.reshape %8(%from_elements) : (tensor<?x4x?x32xbf16>, tensor<3xi64>) -> tensor<?x?x32xbf16>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %24 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %24, "unimplemented: dynamic negative broadcast sizes"
    %25 = tensor.empty(%dim_3, %dim_4) : tensor<?x4x32x?xbf16>
    %26 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%25 : tensor<?x4x32x?xbf16>) {
    ^bb0(%out: bf16):
      %126 = linalg.index 0 : index
      %127 = linalg.index 1 : index
      %128 = linalg.index 2 : index
      %129 = linalg.index 3 : index
      %130 = arith.cmpi eq, %dim_5, %c1 : index
      %131 = arith.select %130, %c0, %126 : index
      %132 = arith.cmpi eq, %dim_6, %c1 : index
      %133 = arith.select %132, %c0, %129 : index
      %extracted = tensor.extract %transposed[%131, %127, %128, %133] : tensor<?x4x32x?xbf16>
      linalg.yield %extracted : bf16
    } -> tensor<?x4x32x?xbf16>
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
    %from_elements_7 = tensor.from_elements %36, %c32_i64, %37 : tensor<3xi64>
    %reshape_8 = tensor.reshape %26(%from_elements_7) : (tensor<?x4x32x?xbf16>, tensor<3xi64>) -> tensor<?x32x?xbf16>
    %38 = arith.index_cast %22 : i64 to index
    %39 = arith.index_cast %23 : i64 to index
    %40 = arith.index_cast %37 : i64 to index
    %41 = arith.cmpi eq, %22, %36 : i64
    cf.assert %41, "mismatching contracting dimension"
    %42 = tensor.empty(%38, %39, %40) : tensor<?x?x?xf32>
    %43 = linalg.fill ins(%cst : f32) outs(%42 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %44 = linalg.batch_matmul ins(%reshape, %reshape_8 : tensor<?x?x32xbf16>, tensor<?x32x?xbf16>) outs(%43 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %45 = tensor.empty(%38, %39, %40) : tensor<?x?x?xbf16>
    %46 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%44 : tensor<?x?x?xf32>) outs(%45 : tensor<?x?x?xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %126 = arith.truncf %in : f32 to bf16
      linalg.yield %126 : bf16
    } -> tensor<?x?x?xbf16>
    %47 = arith.cmpi slt, %1, %c0_i64 : i64
    %48 = arith.select %47, %c1_i64, %1 : i64
    %49 = arith.extui %47 : i1 to i64
    %50 = arith.muli %48, %c4_i64 : i64
    %51 = arith.muli %50, %0 : i64
    %52 = arith.addi %49, %c1_i64 : i64
    %53 = arith.select %14, %50, %51 : i64
    %54 = arith.select %14, %52, %49 : i64
    %55 = arith.muli %53, %2 : i64
    %56 = arith.addi %54, %c1_i64 : i64
    %57 = arith.select %29, %53, %55 : i64
    %58 = arith.select %29, %56, %54 : i64
    %59 = arith.cmpi sle, %58, %c1_i64 : i64
    cf.assert %59, "must have at most one inferred (negative) dimension"
    %60 = arith.muli %22, %23 : i64
    %61 = arith.muli %60, %37 : i64
    %62 = arith.divsi %61, %57 : i64
    %63 = arith.select %47, %62, %1 : i64
    %64 = arith.select %14, %62, %0 : i64
    %65 = arith.select %29, %62, %2 : i64
    %from_elements_9 = tensor.from_elements %63, %c4_i64, %64, %65 : tensor<4xi64>
    %reshape_10 = tensor.reshape %46(%from_elements_9) : (tensor<?x?x?xbf16>, tensor<4xi64>) -> tensor<?x4x?x?xbf16>
    %66 = arith.index_cast %63 : i64 to index
    %67 = arith.index_cast %64 : i64 to index
    %68 = arith.index_cast %65 : i64 to index
    %69 = tensor.empty(%66, %67, %68) : tensor<?x4x?x?xbf16>
    %70 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_10 : tensor<?x4x?x?xbf16>) outs(%69 : tensor<?x4x?x?xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %126 = arith.truncf %cst_1 : f64 to bf16
      %127 = arith.mulf %in, %126 : bf16
      linalg.yield %127 : bf16
    } -> tensor<?x4x?x?xbf16>
    %71 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%70 : tensor<?x4x?x?xbf16>) outs(%69 : tensor<?x4x?x?xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %126 = arith.divf %in, %cst_2 : bf16
      linalg.yield %126 : bf16
    } -> tensor<?x4x?x?xbf16>
    %72 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%71 : tensor<?x4x?x?xbf16>) outs(%69 : tensor<?x4x?x?xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %126 = math.tanh %in : bf16
      linalg.yield %126 : bf16
    } -> tensor<?x4x?x?xbf16>
    %73 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%72 : tensor<?x4x?x?xbf16>) outs(%69 : tensor<?x4x?x?xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %126 = arith.mulf %in, %cst_2 : bf16
      linalg.yield %126 : bf16
    } -> tensor<?x4x?x?xbf16>
    %74 = tensor.empty(%66, %67, %68) : tensor<?x4x?x?xf32>
    %75 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%73 : tensor<?x4x?x?xbf16>) outs(%74 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %126 = arith.extf %in : bf16 to f32
      linalg.yield %126 : f32
    } -> tensor<?x4x?x?xf32>
    %76 = tensor.empty(%66, %67) : tensor<?x4x?xi64>
    %77 = linalg.fill ins(%c0_i64 : i64) outs(%76 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %78 = tensor.empty(%66, %67) : tensor<?x4x?xf32>
    %79 = linalg.fill ins(%cst_0 : f32) outs(%78 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %80:2 = linalg.generic {indexing_maps = [#map, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%75 : tensor<?x4x?x?xf32>) outs(%79, %77 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_17: i64):
      %126 = linalg.index 3 : index
      %127 = arith.index_cast %126 : index to i64
      %128 = arith.maximumf %in, %out : f32
      %129 = arith.cmpf ogt, %in, %out : f32
      %130 = arith.select %129, %127, %out_17 : i64
      linalg.yield %128, %130 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded = tensor.expand_shape %80#0 [[0], [1], [2, 3]] output_shape [%66, 4, %67, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %81 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%75, %expanded : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%74 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_17: f32, %out: f32):
      %126 = arith.subf %in, %in_17 : f32
      linalg.yield %126 : f32
    } -> tensor<?x4x?x?xf32>
    %82 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%81 : tensor<?x4x?x?xf32>) outs(%74 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %126 = math.exp %in : f32
      linalg.yield %126 : f32
    } -> tensor<?x4x?x?xf32>
    %83 = tensor.empty(%66, %67) : tensor<?x4x?x1xf32>
    %84 = linalg.fill ins(%cst : f32) outs(%83 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %85 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%82 : tensor<?x4x?x?xf32>) outs(%84 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %126 = arith.addf %in, %out : f32
      linalg.yield %126 : f32
    } -> tensor<?x4x?x1xf32>
    %86 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%82, %85 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%74 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_17: f32, %out: f32):
      %126 = arith.divf %in, %in_17 : f32
      linalg.yield %126 : f32
    } -> tensor<?x4x?x?xf32>
    %87 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%86 : tensor<?x4x?x?xf32>) outs(%69 : tensor<?x4x?x?xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %126 = arith.truncf %in : f32 to bf16
      linalg.yield %126 : bf16
    } -> tensor<?x4x?x?xbf16>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %6, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %24, "unimplemented: dynamic negative broadcast sizes"
    %88 = tensor.empty(%dim_3, %dim, %dim_4) : tensor<?x4x?x?xbf16>
    %89 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%88 : tensor<?x4x?x?xbf16>) {
    ^bb0(%out: bf16):
      %126 = linalg.index 0 : index
      %127 = linalg.index 1 : index
      %128 = linalg.index 2 : index
      %129 = linalg.index 3 : index
      %130 = arith.cmpi eq, %66, %c1 : index
      %131 = arith.select %130, %c0, %126 : index
      %132 = arith.cmpi eq, %67, %c1 : index
      %133 = arith.select %132, %c0, %128 : index
      %134 = arith.cmpi eq, %68, %c1 : index
      %135 = arith.select %134, %c0, %129 : index
      %extracted = tensor.extract %87[%131, %127, %133, %135] : tensor<?x4x?x?xbf16>
      linalg.yield %extracted : bf16
    } -> tensor<?x4x?x?xbf16>
    %90 = arith.muli %15, %2 : i64
    %91 = arith.addi %16, %c1_i64 : i64
    %92 = arith.select %29, %15, %90 : i64
    %93 = arith.select %29, %91, %16 : i64
    %94 = arith.cmpi sle, %93, %c1_i64 : i64
    cf.assert %94, "must have at most one inferred (negative) dimension"
    %95 = arith.muli %19, %2 : i64
    %96 = arith.divsi %95, %92 : i64
    %97 = arith.select %9, %96, %4 : i64
    %98 = arith.select %14, %96, %0 : i64
    %99 = arith.select %29, %96, %2 : i64
    %from_elements_11 = tensor.from_elements %97, %98, %99 : tensor<3xi64>
    %reshape_12 = tensor.reshape %89(%from_elements_11) : (tensor<?x4x?x?xbf16>, tensor<3xi64>) -> tensor<?x?x?xbf16>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %24, "unimplemented: dynamic negative broadcast sizes"
    %100 = tensor.empty(%dim_3, %dim_4) : tensor<?x4x?x32xbf16>
    %101 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%100 : tensor<?x4x?x32xbf16>) {
    ^bb0(%out: bf16):
      %126 = linalg.index 0 : index
      %127 = linalg.index 1 : index
      %128 = linalg.index 2 : index
      %129 = linalg.index 3 : index
      %130 = arith.cmpi eq, %dim_3, %c1 : index
      %131 = arith.select %130, %c0, %126 : index
      %132 = arith.cmpi eq, %dim_4, %c1 : index
      %133 = arith.select %132, %c0, %128 : index
      %extracted = tensor.extract %arg2[%131, %127, %133, %129] : tensor<?x4x?x32xbf16>
      linalg.yield %extracted : bf16
    } -> tensor<?x4x?x32xbf16>
    %102 = arith.muli %10, %2 : i64
    %103 = arith.select %29, %10, %102 : i64
    %104 = arith.muli %103, %c32_i64 : i64
    cf.assert %32, "must have at most one inferred (negative) dimension"
    %105 = arith.muli %4, %2 : i64
    %106 = arith.muli %105, %c32_i64 : i64
    %107 = arith.divsi %106, %104 : i64
    %108 = arith.select %9, %107, %4 : i64
    %109 = arith.select %29, %107, %2 : i64
    %from_elements_13 = tensor.from_elements %108, %109, %c32_i64 : tensor<3xi64>
    %reshape_14 = tensor.reshape %101(%from_elements_13) : (tensor<?x4x?x32xbf16>, tensor<3xi64>) -> tensor<?x?x32xbf16>
    %110 = arith.index_cast %97 : i64 to index
    %111 = arith.index_cast %98 : i64 to index
    %112 = arith.cmpi eq, %97, %108 : i64
    cf.assert %112, "mismatching contracting dimension"
    %113 = arith.cmpi eq, %99, %109 : i64
    cf.assert %113, "mismatching contracting dimension"
    %114 = tensor.empty(%110, %111) : tensor<?x?x32xf32>
    %115 = linalg.fill ins(%cst : f32) outs(%114 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %116 = linalg.batch_matmul ins(%reshape_12, %reshape_14 : tensor<?x?x?xbf16>, tensor<?x?x32xbf16>) outs(%115 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %117 = tensor.empty(%110, %111) : tensor<?x?x32xbf16>
    %118 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%116 : tensor<?x?x32xf32>) outs(%117 : tensor<?x?x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %126 = arith.truncf %in : f32 to bf16
      linalg.yield %126 : bf16
    } -> tensor<?x?x32xbf16>
    %119 = arith.muli %53, %c32_i64 : i64
    %120 = arith.cmpi sle, %54, %c1_i64 : i64
    cf.assert %120, "must have at most one inferred (negative) dimension"
    %121 = arith.muli %97, %98 : i64
    %122 = arith.muli %121, %c32_i64 : i64
    %123 = arith.divsi %122, %119 : i64
    %124 = arith.select %47, %123, %1 : i64
    %125 = arith.select %14, %123, %0 : i64
    %from_elements_15 = tensor.from_elements %124, %c4_i64, %125, %c32_i64 : tensor<4xi64>
    %reshape_16 = tensor.reshape %118(%from_elements_15) : (tensor<?x?x32xbf16>, tensor<4xi64>) -> tensor<?x4x?x32xbf16>
    return %reshape_16 : tensor<?x4x?x32xbf16>
  }
}
