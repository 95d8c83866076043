// sdpa_bool_mask_dynamic (SdpaMask), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=45 '--shapes=2x4x16x32,2x4x24x32,2x4x24x32,2x1x16x24->2x4x16x32' '--shapes=1x4x1x32,1x4x7x32,1x4x7x32,1x1x1x7->1x4x1x32' '--shapes=3x4x33x32,3x4x1x32,3x4x1x32,3x1x33x1->3x4x33x32' '--shapes=2x4x5x32,2x4x70x32,2x4x70x32,2x1x5x70->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask(%arg3 : tensor<?x1x?x?xi1>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_bool_mask_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_bool_mask_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_bool_mask_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_bool_mask_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> ()>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @sdpa_bool_mask_dynamic(%arg0: tensor<?x4x?x32xf32>, %arg1: tensor<?x4x?x32xf32>, %arg2: tensor<?x4x?x32xf32>, %arg3: tensor<?x1x?x?xi1>) -> tensor<?x4x?x32xf32> {
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
    %cst_2 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_3 = arith.constant 0.42044820762685725 : f64
    %cst_4 = arith.constant 0xFFF0000000000000 : f64
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_5 = tensor.dim %arg2, %c0 : tensor<?x4x?x32xf32>
    %1 = arith.index_cast %dim_5 : index to i64
    %dim_6 = tensor.dim %arg3, %c3 : tensor<?x1x?x?xi1>
    %2 = arith.index_cast %dim_6 : index to i64
    %dim_7 = tensor.dim %arg3, %c0 : tensor<?x1x?x?xi1>
    %dim_8 = tensor.dim %arg3, %c2 : tensor<?x1x?x?xi1>
    %3 = tensor.empty(%dim_7, %dim_8, %dim_6) : tensor<?x1x?x?xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg3, %cst_1, %cst_2 : tensor<?x1x?x?xi1>, tensor<f32>, tensor<f32>) outs(%3 : tensor<?x1x?x?xf32>) {
    ^bb0(%in: i1, %in_22: f32, %in_23: f32, %out: f32):
      %142 = arith.select %in, %in_22, %in_23 : f32
      linalg.yield %142 : f32
    } -> tensor<?x1x?x?xf32>
    %dim_9 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xf32>
    %5 = tensor.empty(%dim_9, %dim) : tensor<?x4x?x32xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<?x4x?x32xf32>) outs(%5 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %142 = arith.truncf %cst_3 : f64 to f32
      %143 = arith.mulf %in, %142 : f32
      linalg.yield %143 : f32
    } -> tensor<?x4x?x32xf32>
    %dim_10 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xf32>
    %dim_11 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xf32>
    %7 = tensor.empty(%dim_10, %dim_11) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x32xf32>) outs(%7 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<?x4x32x?xf32>) outs(%7 : tensor<?x4x32x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %142 = arith.truncf %cst_3 : f64 to f32
      %143 = arith.mulf %in, %142 : f32
      linalg.yield %143 : f32
    } -> tensor<?x4x32x?xf32>
    %9 = arith.muli %1, %c4_i64 : i64
    %10 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %10, "unimplemented: dynamic negative broadcast sizes"
    %11 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %11, "unimplemented: dynamic negative broadcast sizes"
    %12 = tensor.empty(%dim_5, %dim) : tensor<?x4x?x32xf32>
    %13 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%12 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %142 = linalg.index 0 : index
      %143 = linalg.index 1 : index
      %144 = linalg.index 2 : index
      %145 = linalg.index 3 : index
      %146 = arith.cmpi eq, %dim_9, %c1 : index
      %147 = arith.select %146, %c0, %142 : index
      %148 = arith.cmpi eq, %dim, %c1 : index
      %149 = arith.select %148, %c0, %144 : index
      %extracted = tensor.extract %6[%147, %143, %149, %145] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %14 = arith.cmpi slt, %9, %c0_i64 : i64
    %15 = arith.select %14, %c1_i64, %9 : i64
    %16 = arith.extui %14 : i1 to i64
    %17 = arith.muli %15, %0 : i64
    %18 = arith.addi %16, %c1_i64 : i64
    %19 = arith.cmpi slt, %0, %c0_i64 : i64
    %20 = arith.select %19, %15, %17 : i64
    %21 = arith.select %19, %18, %16 : i64
    %22 = arith.muli %20, %c32_i64 : i64
    %23 = arith.cmpi sle, %21, %c1_i64 : i64
    cf.assert %23, "must have at most one inferred (negative) dimension"
    %24 = arith.muli %9, %0 : i64
    %25 = arith.muli %24, %c32_i64 : i64
    %26 = arith.divsi %25, %22 : i64
    %27 = arith.select %14, %26, %9 : i64
    %28 = arith.select %19, %26, %0 : i64
    %from_elements = tensor.from_elements %27, %28, %c32_i64 : tensor<3xi64>
    %reshape = tensor.reshape %13(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %10, "unimplemented: dynamic negative broadcast sizes"
    %29 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %29, "unimplemented: dynamic negative broadcast sizes"
    %30 = tensor.empty(%dim_5, %dim_6) : tensor<?x4x32x?xf32>
    %31 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%30 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %142 = linalg.index 0 : index
      %143 = linalg.index 1 : index
      %144 = linalg.index 2 : index
      %145 = linalg.index 3 : index
      %146 = arith.cmpi eq, %dim_10, %c1 : index
      %147 = arith.select %146, %c0, %142 : index
      %148 = arith.cmpi eq, %dim_11, %c1 : index
      %149 = arith.select %148, %c0, %145 : index
      %extracted = tensor.extract %8[%147, %143, %144, %149] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %32 = arith.muli %15, %c32_i64 : i64
    %33 = arith.muli %32, %2 : i64
    %34 = arith.cmpi slt, %2, %c0_i64 : i64
    %35 = arith.select %34, %32, %33 : i64
    %36 = arith.select %34, %18, %16 : i64
    %37 = arith.cmpi sle, %36, %c1_i64 : i64
    cf.assert %37, "must have at most one inferred (negative) dimension"
    %38 = arith.muli %1, %c128_i64 : i64
    %39 = arith.muli %38, %2 : i64
    %40 = arith.divsi %39, %35 : i64
    %41 = arith.select %14, %40, %9 : i64
    %42 = arith.select %34, %40, %2 : i64
    %from_elements_12 = tensor.from_elements %41, %c32_i64, %42 : tensor<3xi64>
    %reshape_13 = tensor.reshape %31(%from_elements_12) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %43 = arith.index_cast %27 : i64 to index
    %44 = arith.index_cast %28 : i64 to index
    %45 = arith.index_cast %42 : i64 to index
    %46 = arith.cmpi eq, %27, %41 : i64
    cf.assert %46, "mismatching contracting dimension"
    %47 = tensor.empty(%43, %44, %45) : tensor<?x?x?xf32>
    %48 = linalg.fill ins(%cst : f32) outs(%47 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %49 = linalg.batch_matmul ins(%reshape, %reshape_13 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%48 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %50 = arith.cmpi slt, %1, %c0_i64 : i64
    %51 = arith.select %50, %c1_i64, %1 : i64
    %52 = arith.extui %50 : i1 to i64
    %53 = arith.muli %51, %c4_i64 : i64
    %54 = arith.muli %53, %0 : i64
    %55 = arith.addi %52, %c1_i64 : i64
    %56 = arith.select %19, %53, %54 : i64
    %57 = arith.select %19, %55, %52 : i64
    %58 = arith.muli %56, %2 : i64
    %59 = arith.addi %57, %c1_i64 : i64
    %60 = arith.select %34, %56, %58 : i64
    %61 = arith.select %34, %59, %57 : i64
    %62 = arith.cmpi sle, %61, %c1_i64 : i64
    cf.assert %62, "must have at most one inferred (negative) dimension"
    %63 = arith.muli %27, %28 : i64
    %64 = arith.muli %63, %42 : i64
    %65 = arith.divsi %64, %60 : i64
    %66 = arith.select %50, %65, %1 : i64
    %67 = arith.select %19, %65, %0 : i64
    %68 = arith.select %34, %65, %2 : i64
    %from_elements_14 = tensor.from_elements %66, %c4_i64, %67, %68 : tensor<4xi64>
    %reshape_15 = tensor.reshape %49(%from_elements_14) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %69 = arith.index_cast %66 : i64 to index
    %70 = arith.index_cast %67 : i64 to index
    %71 = arith.index_cast %68 : i64 to index
    %72 = arith.cmpi eq, %69, %dim_7 : index
    cf.assert %72, "mismatched size for broadcast"
    %73 = arith.cmpi eq, %70, %dim_8 : index
    cf.assert %73, "mismatched size for broadcast"
    %74 = arith.cmpi eq, %71, %dim_6 : index
    cf.assert %74, "mismatched size for broadcast"
    %75 = tensor.empty(%69, %70, %71) : tensor<?x4x?x?xf32>
    %76 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_15, %4 : tensor<?x4x?x?xf32>, tensor<?x1x?x?xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %142 = arith.addf %in, %in_22 : f32
      linalg.yield %142 : f32
    } -> tensor<?x4x?x?xf32>
    %77 = tensor.empty(%69, %70) : tensor<?x4x?xi64>
    %78 = linalg.fill ins(%c0_i64 : i64) outs(%77 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %79 = tensor.empty(%69, %70) : tensor<?x4x?xf32>
    %80 = linalg.fill ins(%cst_0 : f32) outs(%79 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %81:2 = linalg.generic {indexing_maps = [#map, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%76 : tensor<?x4x?x?xf32>) outs(%80, %78 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_22: i64):
      %142 = linalg.index 3 : index
      %143 = arith.index_cast %142 : index to i64
      %144 = arith.maximumf %in, %out : f32
      %145 = arith.cmpf ogt, %in, %out : f32
      %146 = arith.select %145, %143, %out_22 : i64
      linalg.yield %144, %146 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded = tensor.expand_shape %81#0 [[0], [1], [2, 3]] output_shape [%69, 4, %70, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %82 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%76, %expanded : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %142 = arith.subf %in, %in_22 : f32
      linalg.yield %142 : f32
    } -> tensor<?x4x?x?xf32>
    %83 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%82 : tensor<?x4x?x?xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %142 = math.exp %in : f32
      linalg.yield %142 : f32
    } -> tensor<?x4x?x?xf32>
    %84 = tensor.empty(%69, %70) : tensor<?x4x?x1xf32>
    %85 = linalg.fill ins(%cst : f32) outs(%84 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %86 = linalg.generic {indexing_maps = [#map, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%83 : tensor<?x4x?x?xf32>) outs(%85 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %142 = arith.addf %in, %out : f32
      linalg.yield %142 : f32
    } -> tensor<?x4x?x1xf32>
    %87 = linalg.generic {indexing_maps = [#map, #map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%83, %86 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_22: f32, %out: f32):
      %142 = arith.divf %in, %in_22 : f32
      linalg.yield %142 : f32
    } -> tensor<?x4x?x?xf32>
    %88 = tensor.empty(%69, %70, %71) : tensor<?x4x?x?xi1>
    %89 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%76 : tensor<?x4x?x?xf32>) outs(%88 : tensor<?x4x?x?xi1>) {
    ^bb0(%in: f32, %out: i1):
      %142 = arith.extf %in : f32 to f64
      %143 = arith.cmpf oeq, %142, %cst_4 : f64
      linalg.yield %143 : i1
    } -> tensor<?x4x?x?xi1>
    %90 = tensor.empty(%69, %70) : tensor<?x4x?x1xi1>
    %91 = linalg.fill ins(%true : i1) outs(%90 : tensor<?x4x?x1xi1>) -> tensor<?x4x?x1xi1>
    %92 = linalg.generic {indexing_maps = [#map, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%89 : tensor<?x4x?x?xi1>) outs(%91 : tensor<?x4x?x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %142 = arith.andi %in, %out : i1
      linalg.yield %142 : i1
    } -> tensor<?x4x?x1xi1>
    %93 = arith.cmpi sge, %66, %c0_i64 : i64
    cf.assert %93, "negative values not allowed in new dimensions"
    %94 = arith.index_cast %66 : i64 to index
    %95 = arith.cmpi sge, %67, %c0_i64 : i64
    cf.assert %95, "negative values not allowed in new dimensions"
    %96 = arith.index_cast %67 : i64 to index
    %97 = arith.cmpi sge, %68, %c0_i64 : i64
    cf.assert %97, "negative values not allowed in new dimensions"
    %98 = arith.index_cast %68 : i64 to index
    %99 = tensor.empty(%94, %96, %98) : tensor<?x4x?x?xf32>
    %100 = linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1 : tensor<f32>) outs(%99 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x4x?x?xf32>
    %101 = arith.cmpi eq, %69, %94 : index
    cf.assert %101, "mismatched size for broadcast"
    %102 = arith.cmpi eq, %70, %96 : index
    cf.assert %102, "mismatched size for broadcast"
    %103 = arith.cmpi eq, %98, %71 : index
    cf.assert %103, "mismatched size for broadcast"
    %104 = tensor.empty(%69, %70, %98) : tensor<?x4x?x?xf32>
    %105 = linalg.generic {indexing_maps = [#map4, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%92, %100, %87 : tensor<?x4x?x1xi1>, tensor<?x4x?x?xf32>, tensor<?x4x?x?xf32>) outs(%104 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: i1, %in_22: f32, %in_23: f32, %out: f32):
      %142 = arith.select %in, %in_22, %in_23 : f32
      linalg.yield %142 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %10, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %11, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %29, "unimplemented: dynamic negative broadcast sizes"
    %106 = tensor.empty(%dim_5, %dim, %dim_6) : tensor<?x4x?x?xf32>
    %107 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%106 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %142 = linalg.index 0 : index
      %143 = linalg.index 1 : index
      %144 = linalg.index 2 : index
      %145 = linalg.index 3 : index
      %146 = arith.cmpi eq, %69, %c1 : index
      %147 = arith.select %146, %c0, %142 : index
      %148 = arith.cmpi eq, %70, %c1 : index
      %149 = arith.select %148, %c0, %144 : index
      %150 = arith.cmpi eq, %98, %c1 : index
      %151 = arith.select %150, %c0, %145 : index
      %extracted = tensor.extract %105[%147, %143, %149, %151] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %108 = arith.muli %20, %2 : i64
    %109 = arith.addi %21, %c1_i64 : i64
    %110 = arith.select %34, %20, %108 : i64
    %111 = arith.select %34, %109, %21 : i64
    %112 = arith.cmpi sle, %111, %c1_i64 : i64
    cf.assert %112, "must have at most one inferred (negative) dimension"
    %113 = arith.muli %24, %2 : i64
    %114 = arith.divsi %113, %110 : i64
    %115 = arith.select %14, %114, %9 : i64
    %116 = arith.select %19, %114, %0 : i64
    %117 = arith.select %34, %114, %2 : i64
    %from_elements_16 = tensor.from_elements %115, %116, %117 : tensor<3xi64>
    %reshape_17 = tensor.reshape %107(%from_elements_16) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %10, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %29, "unimplemented: dynamic negative broadcast sizes"
    %118 = tensor.empty(%dim_5, %dim_6) : tensor<?x4x?x32xf32>
    %119 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%118 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %142 = linalg.index 0 : index
      %143 = linalg.index 1 : index
      %144 = linalg.index 2 : index
      %145 = linalg.index 3 : index
      %146 = arith.cmpi eq, %dim_5, %c1 : index
      %147 = arith.select %146, %c0, %142 : index
      %dim_22 = tensor.dim %arg2, %c2 : tensor<?x4x?x32xf32>
      %148 = arith.cmpi eq, %dim_22, %c1 : index
      %149 = arith.select %148, %c0, %144 : index
      %extracted = tensor.extract %arg2[%147, %143, %149, %145] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %120 = arith.muli %15, %2 : i64
    %121 = arith.select %34, %15, %120 : i64
    %122 = arith.muli %121, %c32_i64 : i64
    cf.assert %37, "must have at most one inferred (negative) dimension"
    %123 = arith.muli %9, %2 : i64
    %124 = arith.muli %123, %c32_i64 : i64
    %125 = arith.divsi %124, %122 : i64
    %126 = arith.select %14, %125, %9 : i64
    %127 = arith.select %34, %125, %2 : i64
    %from_elements_18 = tensor.from_elements %126, %127, %c32_i64 : tensor<3xi64>
    %reshape_19 = tensor.reshape %119(%from_elements_18) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %128 = arith.index_cast %115 : i64 to index
    %129 = arith.index_cast %116 : i64 to index
    %130 = arith.cmpi eq, %115, %126 : i64
    cf.assert %130, "mismatching contracting dimension"
    %131 = arith.cmpi eq, %117, %127 : i64
    cf.assert %131, "mismatching contracting dimension"
    %132 = tensor.empty(%128, %129) : tensor<?x?x32xf32>
    %133 = linalg.fill ins(%cst : f32) outs(%132 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %134 = linalg.batch_matmul ins(%reshape_17, %reshape_19 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%133 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %135 = arith.muli %56, %c32_i64 : i64
    %136 = arith.cmpi sle, %57, %c1_i64 : i64
    cf.assert %136, "must have at most one inferred (negative) dimension"
    %137 = arith.muli %115, %116 : i64
    %138 = arith.muli %137, %c32_i64 : i64
    %139 = arith.divsi %138, %135 : i64
    %140 = arith.select %50, %139, %1 : i64
    %141 = arith.select %19, %139, %0 : i64
    %from_elements_20 = tensor.from_elements %140, %c4_i64, %141, %c32_i64 : tensor<4xi64>
    %reshape_21 = tensor.reshape %134(%from_elements_20) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    return %reshape_21 : tensor<?x4x?x32xf32>
  }
}
