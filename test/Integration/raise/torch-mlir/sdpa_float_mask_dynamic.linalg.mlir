// sdpa_float_mask_dynamic (SdpaMask), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=46 '--shapes=2x4x16x32,2x4x24x32,2x4x24x32,2x1x1x24->2x4x16x32' '--shapes=1x4x1x32,1x4x7x32,1x4x7x32,1x1x1x7->1x4x1x32' '--shapes=3x4x33x32,3x4x1x32,3x4x1x32,3x1x1x1->3x4x33x32' '--shapes=2x4x5x32,2x4x70x32,2x4x70x32,2x1x1x70->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask(%arg3 : tensor<?x1x1x?xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_float_mask_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_float_mask_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_float_mask_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_float_mask_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map4 = affine_map<(d0, d1, d2, d3) -> ()>
module {
  func.func @sdpa_float_mask_dynamic(%arg0: tensor<?x4x?x32xf32>, %arg1: tensor<?x4x?x32xf32>, %arg2: tensor<?x4x?x32xf32>, %arg3: tensor<?x1x1x?xf32>) -> tensor<?x4x?x32xf32> {
    %c1_i64 = arith.constant 1 : i64
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c32_i64 = arith.constant 32 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = arith.constant 0xFFF0000000000000 : f64
    %cst_3 = arith.constant 0.42044820762685725 : f64
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_4 = tensor.dim %arg2, %c0 : tensor<?x4x?x32xf32>
    %1 = arith.index_cast %dim_4 : index to i64
    %dim_5 = tensor.dim %arg3, %c3 : tensor<?x1x1x?xf32>
    %2 = arith.index_cast %dim_5 : index to i64
    %dim_6 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xf32>
    %3 = tensor.empty(%dim_6, %dim) : tensor<?x4x?x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<?x4x?x32xf32>) outs(%3 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %139 = arith.truncf %cst_3 : f64 to f32
      %140 = arith.mulf %in, %139 : f32
      linalg.yield %140 : f32
    } -> tensor<?x4x?x32xf32>
    %dim_7 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xf32>
    %dim_8 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xf32>
    %5 = tensor.empty(%dim_7, %dim_8) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x32xf32>) outs(%5 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<?x4x32x?xf32>) outs(%5 : tensor<?x4x32x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %139 = arith.truncf %cst_3 : f64 to f32
      %140 = arith.mulf %in, %139 : f32
      linalg.yield %140 : f32
    } -> tensor<?x4x32x?xf32>
    %7 = arith.muli %1, %c4_i64 : i64
    %8 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %8, "unimplemented: dynamic negative broadcast sizes"
    %9 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %9, "unimplemented: dynamic negative broadcast sizes"
    %10 = tensor.empty(%dim_4, %dim) : tensor<?x4x?x32xf32>
    %11 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%10 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %139 = linalg.index 0 : index
      %140 = linalg.index 1 : index
      %141 = linalg.index 2 : index
      %142 = linalg.index 3 : index
      %143 = arith.cmpi eq, %dim_6, %c1 : index
      %144 = arith.select %143, %c0, %139 : index
      %145 = arith.cmpi eq, %dim, %c1 : index
      %146 = arith.select %145, %c0, %141 : index
      %extracted = tensor.extract %4[%144, %140, %146, %142] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %12 = arith.cmpi slt, %7, %c0_i64 : i64
    %13 = arith.select %12, %c1_i64, %7 : i64
    %14 = arith.extui %12 : i1 to i64
    %15 = arith.muli %13, %0 : i64
    %16 = arith.addi %14, %c1_i64 : i64
    %17 = arith.cmpi slt, %0, %c0_i64 : i64
    %18 = arith.select %17, %13, %15 : i64
    %19 = arith.select %17, %16, %14 : i64
    %20 = arith.muli %18, %c32_i64 : i64
    %21 = arith.cmpi sle, %19, %c1_i64 : i64
    cf.assert %21, "must have at most one inferred (negative) dimension"
    %22 = arith.muli %7, %0 : i64
    %23 = arith.muli %22, %c32_i64 : i64
    %24 = arith.divsi %23, %20 : i64
    %25 = arith.select %12, %24, %7 : i64
    %26 = arith.select %17, %24, %0 : i64
    %from_elements = tensor.from_elements %25, %26, %c32_i64 : tensor<3xi64>
    %reshape = tensor.reshape %11(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %8, "unimplemented: dynamic negative broadcast sizes"
    %27 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %27, "unimplemented: dynamic negative broadcast sizes"
    %28 = tensor.empty(%dim_4, %dim_5) : tensor<?x4x32x?xf32>
    %29 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%28 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %139 = linalg.index 0 : index
      %140 = linalg.index 1 : index
      %141 = linalg.index 2 : index
      %142 = linalg.index 3 : index
      %143 = arith.cmpi eq, %dim_7, %c1 : index
      %144 = arith.select %143, %c0, %139 : index
      %145 = arith.cmpi eq, %dim_8, %c1 : index
      %146 = arith.select %145, %c0, %142 : index
      %extracted = tensor.extract %6[%144, %140, %141, %146] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %30 = arith.muli %13, %c32_i64 : i64
    %31 = arith.muli %30, %2 : i64
    %32 = arith.cmpi slt, %2, %c0_i64 : i64
    %33 = arith.select %32, %30, %31 : i64
    %34 = arith.select %32, %16, %14 : i64
    %35 = arith.cmpi sle, %34, %c1_i64 : i64
    cf.assert %35, "must have at most one inferred (negative) dimension"
    %36 = arith.muli %1, %c128_i64 : i64
    %37 = arith.muli %36, %2 : i64
    %38 = arith.divsi %37, %33 : i64
    %39 = arith.select %12, %38, %7 : i64
    %40 = arith.select %32, %38, %2 : i64
    %from_elements_9 = tensor.from_elements %39, %c32_i64, %40 : tensor<3xi64>
    %reshape_10 = tensor.reshape %29(%from_elements_9) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %41 = arith.index_cast %25 : i64 to index
    %42 = arith.index_cast %26 : i64 to index
    %43 = arith.index_cast %40 : i64 to index
    %44 = arith.cmpi eq, %25, %39 : i64
    cf.assert %44, "mismatching contracting dimension"
    %45 = tensor.empty(%41, %42, %43) : tensor<?x?x?xf32>
    %46 = linalg.fill ins(%cst : f32) outs(%45 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %47 = linalg.batch_matmul ins(%reshape, %reshape_10 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%46 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %48 = arith.cmpi slt, %1, %c0_i64 : i64
    %49 = arith.select %48, %c1_i64, %1 : i64
    %50 = arith.extui %48 : i1 to i64
    %51 = arith.muli %49, %c4_i64 : i64
    %52 = arith.muli %51, %0 : i64
    %53 = arith.addi %50, %c1_i64 : i64
    %54 = arith.select %17, %51, %52 : i64
    %55 = arith.select %17, %53, %50 : i64
    %56 = arith.muli %54, %2 : i64
    %57 = arith.addi %55, %c1_i64 : i64
    %58 = arith.select %32, %54, %56 : i64
    %59 = arith.select %32, %57, %55 : i64
    %60 = arith.cmpi sle, %59, %c1_i64 : i64
    cf.assert %60, "must have at most one inferred (negative) dimension"
    %61 = arith.muli %25, %26 : i64
    %62 = arith.muli %61, %40 : i64
    %63 = arith.divsi %62, %58 : i64
    %64 = arith.select %48, %63, %1 : i64
    %65 = arith.select %17, %63, %0 : i64
    %66 = arith.select %32, %63, %2 : i64
    %from_elements_11 = tensor.from_elements %64, %c4_i64, %65, %66 : tensor<4xi64>
    %reshape_12 = tensor.reshape %47(%from_elements_11) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %67 = arith.index_cast %64 : i64 to index
    %68 = arith.index_cast %65 : i64 to index
    %69 = arith.index_cast %66 : i64 to index
    %dim_13 = tensor.dim %arg3, %c0 : tensor<?x1x1x?xf32>
    %70 = arith.cmpi eq, %67, %dim_13 : index
    cf.assert %70, "mismatched size for broadcast"
    %71 = arith.cmpi eq, %69, %dim_5 : index
    cf.assert %71, "mismatched size for broadcast"
    %72 = tensor.empty(%67, %68, %69) : tensor<?x4x?x?xf32>
    %73 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_12, %arg3 : tensor<?x4x?x?xf32>, tensor<?x1x1x?xf32>) outs(%72 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %139 = arith.addf %in, %in_20 : f32
      linalg.yield %139 : f32
    } -> tensor<?x4x?x?xf32>
    %74 = tensor.empty(%67, %68) : tensor<?x4x?xi64>
    %75 = linalg.fill ins(%c0_i64 : i64) outs(%74 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %76 = tensor.empty(%67, %68) : tensor<?x4x?xf32>
    %77 = linalg.fill ins(%cst_0 : f32) outs(%76 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %78:2 = linalg.generic {indexing_maps = [#map, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%73 : tensor<?x4x?x?xf32>) outs(%77, %75 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_20: i64):
      %139 = linalg.index 3 : index
      %140 = arith.index_cast %139 : index to i64
      %141 = arith.maximumf %in, %out : f32
      %142 = arith.cmpf ogt, %in, %out : f32
      %143 = arith.select %142, %140, %out_20 : i64
      linalg.yield %141, %143 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded = tensor.expand_shape %78#0 [[0], [1], [2, 3]] output_shape [%67, 4, %68, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %79 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%73, %expanded : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%72 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %139 = arith.subf %in, %in_20 : f32
      linalg.yield %139 : f32
    } -> tensor<?x4x?x?xf32>
    %80 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%79 : tensor<?x4x?x?xf32>) outs(%72 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %139 = math.exp %in : f32
      linalg.yield %139 : f32
    } -> tensor<?x4x?x?xf32>
    %81 = tensor.empty(%67, %68) : tensor<?x4x?x1xf32>
    %82 = linalg.fill ins(%cst : f32) outs(%81 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %83 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%80 : tensor<?x4x?x?xf32>) outs(%82 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %139 = arith.addf %in, %out : f32
      linalg.yield %139 : f32
    } -> tensor<?x4x?x1xf32>
    %84 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%80, %83 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%72 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_20: f32, %out: f32):
      %139 = arith.divf %in, %in_20 : f32
      linalg.yield %139 : f32
    } -> tensor<?x4x?x?xf32>
    %85 = tensor.empty(%67, %68, %69) : tensor<?x4x?x?xi1>
    %86 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%73 : tensor<?x4x?x?xf32>) outs(%85 : tensor<?x4x?x?xi1>) {
    ^bb0(%in: f32, %out: i1):
      %139 = arith.extf %in : f32 to f64
      %140 = arith.cmpf oeq, %139, %cst_2 : f64
      linalg.yield %140 : i1
    } -> tensor<?x4x?x?xi1>
    %87 = tensor.empty(%67, %68) : tensor<?x4x?x1xi1>
    %88 = linalg.fill ins(%true : i1) outs(%87 : tensor<?x4x?x1xi1>) -> tensor<?x4x?x1xi1>
    %89 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%86 : tensor<?x4x?x?xi1>) outs(%88 : tensor<?x4x?x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %139 = arith.andi %in, %out : i1
      linalg.yield %139 : i1
    } -> tensor<?x4x?x1xi1>
    %90 = arith.cmpi sge, %64, %c0_i64 : i64
    cf.assert %90, "negative values not allowed in new dimensions"
    %91 = arith.index_cast %64 : i64 to index
    %92 = arith.cmpi sge, %65, %c0_i64 : i64
    cf.assert %92, "negative values not allowed in new dimensions"
    %93 = arith.index_cast %65 : i64 to index
    %94 = arith.cmpi sge, %66, %c0_i64 : i64
    cf.assert %94, "negative values not allowed in new dimensions"
    %95 = arith.index_cast %66 : i64 to index
    %96 = tensor.empty(%91, %93, %95) : tensor<?x4x?x?xf32>
    %97 = linalg.generic {indexing_maps = [#map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1 : tensor<f32>) outs(%96 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x4x?x?xf32>
    %98 = arith.cmpi eq, %67, %91 : index
    cf.assert %98, "mismatched size for broadcast"
    %99 = arith.cmpi eq, %68, %93 : index
    cf.assert %99, "mismatched size for broadcast"
    %100 = arith.cmpi eq, %95, %69 : index
    cf.assert %100, "mismatched size for broadcast"
    %101 = tensor.empty(%67, %68, %95) : tensor<?x4x?x?xf32>
    %102 = linalg.generic {indexing_maps = [#map3, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%89, %97, %84 : tensor<?x4x?x1xi1>, tensor<?x4x?x?xf32>, tensor<?x4x?x?xf32>) outs(%101 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: i1, %in_20: f32, %in_21: f32, %out: f32):
      %139 = arith.select %in, %in_20, %in_21 : f32
      linalg.yield %139 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %8, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %9, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %27, "unimplemented: dynamic negative broadcast sizes"
    %103 = tensor.empty(%dim_4, %dim, %dim_5) : tensor<?x4x?x?xf32>
    %104 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%103 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %139 = linalg.index 0 : index
      %140 = linalg.index 1 : index
      %141 = linalg.index 2 : index
      %142 = linalg.index 3 : index
      %143 = arith.cmpi eq, %67, %c1 : index
      %144 = arith.select %143, %c0, %139 : index
      %145 = arith.cmpi eq, %68, %c1 : index
      %146 = arith.select %145, %c0, %141 : index
      %147 = arith.cmpi eq, %95, %c1 : index
      %148 = arith.select %147, %c0, %142 : index
      %extracted = tensor.extract %102[%144, %140, %146, %148] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %105 = arith.muli %18, %2 : i64
    %106 = arith.addi %19, %c1_i64 : i64
    %107 = arith.select %32, %18, %105 : i64
    %108 = arith.select %32, %106, %19 : i64
    %109 = arith.cmpi sle, %108, %c1_i64 : i64
    cf.assert %109, "must have at most one inferred (negative) dimension"
    %110 = arith.muli %22, %2 : i64
    %111 = arith.divsi %110, %107 : i64
    %112 = arith.select %12, %111, %7 : i64
    %113 = arith.select %17, %111, %0 : i64
    %114 = arith.select %32, %111, %2 : i64
    %from_elements_14 = tensor.from_elements %112, %113, %114 : tensor<3xi64>
    %reshape_15 = tensor.reshape %104(%from_elements_14) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %8, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %27, "unimplemented: dynamic negative broadcast sizes"
    %115 = tensor.empty(%dim_4, %dim_5) : tensor<?x4x?x32xf32>
    %116 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%115 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %139 = linalg.index 0 : index
      %140 = linalg.index 1 : index
      %141 = linalg.index 2 : index
      %142 = linalg.index 3 : index
      %143 = arith.cmpi eq, %dim_4, %c1 : index
      %144 = arith.select %143, %c0, %139 : index
      %dim_20 = tensor.dim %arg2, %c2 : tensor<?x4x?x32xf32>
      %145 = arith.cmpi eq, %dim_20, %c1 : index
      %146 = arith.select %145, %c0, %141 : index
      %extracted = tensor.extract %arg2[%144, %140, %146, %142] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %117 = arith.muli %13, %2 : i64
    %118 = arith.select %32, %13, %117 : i64
    %119 = arith.muli %118, %c32_i64 : i64
    cf.assert %35, "must have at most one inferred (negative) dimension"
    %120 = arith.muli %7, %2 : i64
    %121 = arith.muli %120, %c32_i64 : i64
    %122 = arith.divsi %121, %119 : i64
    %123 = arith.select %12, %122, %7 : i64
    %124 = arith.select %32, %122, %2 : i64
    %from_elements_16 = tensor.from_elements %123, %124, %c32_i64 : tensor<3xi64>
    %reshape_17 = tensor.reshape %116(%from_elements_16) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %125 = arith.index_cast %112 : i64 to index
    %126 = arith.index_cast %113 : i64 to index
    %127 = arith.cmpi eq, %112, %123 : i64
    cf.assert %127, "mismatching contracting dimension"
    %128 = arith.cmpi eq, %114, %124 : i64
    cf.assert %128, "mismatching contracting dimension"
    %129 = tensor.empty(%125, %126) : tensor<?x?x32xf32>
    %130 = linalg.fill ins(%cst : f32) outs(%129 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %131 = linalg.batch_matmul ins(%reshape_15, %reshape_17 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%130 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %132 = arith.muli %54, %c32_i64 : i64
    %133 = arith.cmpi sle, %55, %c1_i64 : i64
    cf.assert %133, "must have at most one inferred (negative) dimension"
    %134 = arith.muli %112, %113 : i64
    %135 = arith.muli %134, %c32_i64 : i64
    %136 = arith.divsi %135, %132 : i64
    %137 = arith.select %48, %136, %1 : i64
    %138 = arith.select %17, %136, %0 : i64
    %from_elements_18 = tensor.from_elements %137, %c4_i64, %138, %c32_i64 : tensor<4xi64>
    %reshape_19 = tensor.reshape %131(%from_elements_18) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    return %reshape_19 : tensor<?x4x?x32xf32>
  }
}
