// sdpa_gqa_dynamic (SdpaGqa), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=53 '--shapes=2x4x16x32,2x2x24x32,2x2x24x32->2x4x16x32' '--shapes=1x4x1x32,1x2x7x32,1x2x7x32->1x4x1x32' '--shapes=3x4x33x32,3x2x1x32,3x2x1x32->3x4x33x32' '--shapes=2x4x5x32,2x2x70x32,2x2x70x32->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}tensor<?x2x?x32xf32>) {scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_gqa_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_gqa_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_gqa_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_gqa_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map4 = affine_map<(d0, d1, d2, d3) -> ()>
module {
  func.func @sdpa_gqa_dynamic(%arg0: tensor<?x4x?x32xf32>, %arg1: tensor<?x2x?x32xf32>, %arg2: tensor<?x2x?x32xf32>) -> tensor<?x4x?x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c32_i64 = arith.constant 32 : i64
    %c1_i64 = arith.constant 1 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = arith.constant 0xFFF0000000000000 : f64
    %cst_3 = arith.constant 0.42044820762685725 : f64
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_4 = tensor.dim %arg2, %c0 : tensor<?x2x?x32xf32>
    %1 = arith.index_cast %dim_4 : index to i64
    %dim_5 = tensor.dim %arg2, %c2 : tensor<?x2x?x32xf32>
    %2 = arith.index_cast %dim_5 : index to i64
    %dim_6 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xf32>
    %3 = tensor.empty(%dim_6, %dim) : tensor<?x4x?x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<?x4x?x32xf32>) outs(%3 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %149 = arith.truncf %cst_3 : f64 to f32
      %150 = arith.mulf %in, %149 : f32
      linalg.yield %150 : f32
    } -> tensor<?x4x?x32xf32>
    %dim_7 = tensor.dim %arg1, %c0 : tensor<?x2x?x32xf32>
    %dim_8 = tensor.dim %arg1, %c2 : tensor<?x2x?x32xf32>
    %expanded = tensor.expand_shape %arg1 [[0], [1], [2, 3], [4]] output_shape [%dim_7, 2, 1, %dim_8, 32] : tensor<?x2x?x32xf32> into tensor<?x2x1x?x32xf32>
    %5 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %6 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %6, "unimplemented: dynamic negative broadcast sizes"
    %7 = tensor.empty(%dim_4, %dim_5) : tensor<?x2x2x?x32xf32>
    %8 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%7 : tensor<?x2x2x?x32xf32>) {
    ^bb0(%out: f32):
      %149 = linalg.index 0 : index
      %150 = linalg.index 1 : index
      %151 = linalg.index 3 : index
      %152 = linalg.index 4 : index
      %153 = arith.cmpi eq, %dim_7, %c1 : index
      %154 = arith.select %153, %c0, %149 : index
      %155 = arith.cmpi eq, %dim_8, %c1 : index
      %156 = arith.select %155, %c0, %151 : index
      %extracted = tensor.extract %expanded[%154, %150, %c0, %156, %152] : tensor<?x2x1x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x2x2x?x32xf32>
    %9 = arith.cmpi slt, %1, %c0_i64 : i64
    %10 = arith.select %9, %c1_i64, %1 : i64
    %11 = arith.extui %9 : i1 to i64
    %12 = arith.muli %10, %c4_i64 : i64
    %13 = arith.muli %12, %2 : i64
    %14 = arith.addi %11, %c1_i64 : i64
    %15 = arith.cmpi slt, %2, %c0_i64 : i64
    %16 = arith.select %15, %12, %13 : i64
    %17 = arith.select %15, %14, %11 : i64
    %18 = arith.muli %16, %c32_i64 : i64
    %19 = arith.cmpi sle, %17, %c1_i64 : i64
    cf.assert %19, "must have at most one inferred (negative) dimension"
    %20 = arith.muli %1, %c4_i64 : i64
    %21 = arith.muli %20, %2 : i64
    %22 = arith.muli %21, %c32_i64 : i64
    %23 = arith.divsi %22, %18 : i64
    %24 = arith.select %9, %23, %1 : i64
    %25 = arith.select %15, %23, %2 : i64
    %from_elements = tensor.from_elements %24, %c4_i64, %25, %c32_i64 : tensor<4xi64>
    %reshape = tensor.reshape %8(%from_elements) : (tensor<?x2x2x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    %expanded_9 = tensor.expand_shape %arg2 [[0], [1], [2, 3], [4]] output_shape [%dim_4, 2, 1, %dim_5, 32] : tensor<?x2x?x32xf32> into tensor<?x2x1x?x32xf32>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %6, "unimplemented: dynamic negative broadcast sizes"
    %26 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%7 : tensor<?x2x2x?x32xf32>) {
    ^bb0(%out: f32):
      %149 = linalg.index 0 : index
      %150 = linalg.index 1 : index
      %151 = linalg.index 3 : index
      %152 = linalg.index 4 : index
      %153 = arith.cmpi eq, %dim_4, %c1 : index
      %154 = arith.select %153, %c0, %149 : index
      %155 = arith.cmpi eq, %dim_5, %c1 : index
      %156 = arith.select %155, %c0, %151 : index
      %extracted = tensor.extract %expanded_9[%154, %150, %c0, %156, %152] : tensor<?x2x1x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x2x2x?x32xf32>
    cf.assert %19, "must have at most one inferred (negative) dimension"
    %reshape_10 = tensor.reshape %26(%from_elements) : (tensor<?x2x2x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    %27 = arith.index_cast %24 : i64 to index
    %28 = arith.index_cast %25 : i64 to index
    %29 = tensor.empty(%27, %28) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%reshape : tensor<?x4x?x32xf32>) outs(%29 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %30 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<?x4x32x?xf32>) outs(%29 : tensor<?x4x32x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %149 = arith.truncf %cst_3 : f64 to f32
      %150 = arith.mulf %in, %149 : f32
      linalg.yield %150 : f32
    } -> tensor<?x4x32x?xf32>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %31 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %31, "unimplemented: dynamic negative broadcast sizes"
    %32 = tensor.empty(%dim_4, %dim) : tensor<?x4x?x32xf32>
    %33 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%32 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %149 = linalg.index 0 : index
      %150 = linalg.index 1 : index
      %151 = linalg.index 2 : index
      %152 = linalg.index 3 : index
      %153 = arith.cmpi eq, %dim_6, %c1 : index
      %154 = arith.select %153, %c0, %149 : index
      %155 = arith.cmpi eq, %dim, %c1 : index
      %156 = arith.select %155, %c0, %151 : index
      %extracted = tensor.extract %4[%154, %150, %156, %152] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %34 = arith.cmpi slt, %20, %c0_i64 : i64
    %35 = arith.select %34, %c1_i64, %20 : i64
    %36 = arith.extui %34 : i1 to i64
    %37 = arith.muli %35, %0 : i64
    %38 = arith.addi %36, %c1_i64 : i64
    %39 = arith.cmpi slt, %0, %c0_i64 : i64
    %40 = arith.select %39, %35, %37 : i64
    %41 = arith.select %39, %38, %36 : i64
    %42 = arith.muli %40, %c32_i64 : i64
    %43 = arith.cmpi sle, %41, %c1_i64 : i64
    cf.assert %43, "must have at most one inferred (negative) dimension"
    %44 = arith.muli %20, %0 : i64
    %45 = arith.muli %44, %c32_i64 : i64
    %46 = arith.divsi %45, %42 : i64
    %47 = arith.select %34, %46, %20 : i64
    %48 = arith.select %39, %46, %0 : i64
    %from_elements_11 = tensor.from_elements %47, %48, %c32_i64 : tensor<3xi64>
    %reshape_12 = tensor.reshape %33(%from_elements_11) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %6, "unimplemented: dynamic negative broadcast sizes"
    %49 = tensor.empty(%dim_4, %dim_5) : tensor<?x4x32x?xf32>
    %50 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%49 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %149 = linalg.index 0 : index
      %150 = linalg.index 1 : index
      %151 = linalg.index 2 : index
      %152 = linalg.index 3 : index
      %153 = arith.cmpi eq, %27, %c1 : index
      %154 = arith.select %153, %c0, %149 : index
      %155 = arith.cmpi eq, %28, %c1 : index
      %156 = arith.select %155, %c0, %152 : index
      %extracted = tensor.extract %30[%154, %150, %151, %156] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %51 = arith.muli %35, %c32_i64 : i64
    %52 = arith.muli %51, %2 : i64
    %53 = arith.select %15, %51, %52 : i64
    %54 = arith.select %15, %38, %36 : i64
    %55 = arith.cmpi sle, %54, %c1_i64 : i64
    cf.assert %55, "must have at most one inferred (negative) dimension"
    %56 = arith.muli %1, %c128_i64 : i64
    %57 = arith.muli %56, %2 : i64
    %58 = arith.divsi %57, %53 : i64
    %59 = arith.select %34, %58, %20 : i64
    %60 = arith.select %15, %58, %2 : i64
    %from_elements_13 = tensor.from_elements %59, %c32_i64, %60 : tensor<3xi64>
    %reshape_14 = tensor.reshape %50(%from_elements_13) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %61 = arith.index_cast %47 : i64 to index
    %62 = arith.index_cast %48 : i64 to index
    %63 = arith.index_cast %60 : i64 to index
    %64 = arith.cmpi eq, %47, %59 : i64
    cf.assert %64, "mismatching contracting dimension"
    %65 = tensor.empty(%61, %62, %63) : tensor<?x?x?xf32>
    %66 = linalg.fill ins(%cst : f32) outs(%65 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %67 = linalg.batch_matmul ins(%reshape_12, %reshape_14 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%66 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %68 = arith.muli %12, %0 : i64
    %69 = arith.select %39, %12, %68 : i64
    %70 = arith.select %39, %14, %11 : i64
    %71 = arith.muli %69, %2 : i64
    %72 = arith.addi %70, %c1_i64 : i64
    %73 = arith.select %15, %69, %71 : i64
    %74 = arith.select %15, %72, %70 : i64
    %75 = arith.cmpi sle, %74, %c1_i64 : i64
    cf.assert %75, "must have at most one inferred (negative) dimension"
    %76 = arith.muli %47, %48 : i64
    %77 = arith.muli %76, %60 : i64
    %78 = arith.divsi %77, %73 : i64
    %79 = arith.select %9, %78, %1 : i64
    %80 = arith.select %39, %78, %0 : i64
    %81 = arith.select %15, %78, %2 : i64
    %from_elements_15 = tensor.from_elements %79, %c4_i64, %80, %81 : tensor<4xi64>
    %reshape_16 = tensor.reshape %67(%from_elements_15) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %82 = arith.index_cast %79 : i64 to index
    %83 = arith.index_cast %80 : i64 to index
    %84 = tensor.empty(%82, %83) : tensor<?x4x?xi64>
    %85 = linalg.fill ins(%c0_i64 : i64) outs(%84 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %86 = tensor.empty(%82, %83) : tensor<?x4x?xf32>
    %87 = linalg.fill ins(%cst_0 : f32) outs(%86 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %88:2 = linalg.generic {indexing_maps = [#map, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%reshape_16 : tensor<?x4x?x?xf32>) outs(%87, %85 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_24: i64):
      %149 = linalg.index 3 : index
      %150 = arith.index_cast %149 : index to i64
      %151 = arith.maximumf %in, %out : f32
      %152 = arith.cmpf ogt, %in, %out : f32
      %153 = arith.select %152, %150, %out_24 : i64
      linalg.yield %151, %153 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded_17 = tensor.expand_shape %88#0 [[0], [1], [2, 3]] output_shape [%82, 4, %83, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %89 = arith.index_cast %81 : i64 to index
    %90 = tensor.empty(%82, %83, %89) : tensor<?x4x?x?xf32>
    %91 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_16, %expanded_17 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%90 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_24: f32, %out: f32):
      %149 = arith.subf %in, %in_24 : f32
      linalg.yield %149 : f32
    } -> tensor<?x4x?x?xf32>
    %92 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%91 : tensor<?x4x?x?xf32>) outs(%90 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %149 = math.exp %in : f32
      linalg.yield %149 : f32
    } -> tensor<?x4x?x?xf32>
    %93 = tensor.empty(%82, %83) : tensor<?x4x?x1xf32>
    %94 = linalg.fill ins(%cst : f32) outs(%93 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %95 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%92 : tensor<?x4x?x?xf32>) outs(%94 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %149 = arith.addf %in, %out : f32
      linalg.yield %149 : f32
    } -> tensor<?x4x?x1xf32>
    %96 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%92, %95 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%90 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_24: f32, %out: f32):
      %149 = arith.divf %in, %in_24 : f32
      linalg.yield %149 : f32
    } -> tensor<?x4x?x?xf32>
    %97 = tensor.empty(%82, %83, %89) : tensor<?x4x?x?xi1>
    %98 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_16 : tensor<?x4x?x?xf32>) outs(%97 : tensor<?x4x?x?xi1>) {
    ^bb0(%in: f32, %out: i1):
      %149 = arith.extf %in : f32 to f64
      %150 = arith.cmpf oeq, %149, %cst_2 : f64
      linalg.yield %150 : i1
    } -> tensor<?x4x?x?xi1>
    %99 = tensor.empty(%82, %83) : tensor<?x4x?x1xi1>
    %100 = linalg.fill ins(%true : i1) outs(%99 : tensor<?x4x?x1xi1>) -> tensor<?x4x?x1xi1>
    %101 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%98 : tensor<?x4x?x?xi1>) outs(%100 : tensor<?x4x?x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %149 = arith.andi %in, %out : i1
      linalg.yield %149 : i1
    } -> tensor<?x4x?x1xi1>
    %102 = arith.cmpi sge, %79, %c0_i64 : i64
    cf.assert %102, "negative values not allowed in new dimensions"
    %103 = arith.index_cast %79 : i64 to index
    %104 = arith.cmpi sge, %80, %c0_i64 : i64
    cf.assert %104, "negative values not allowed in new dimensions"
    %105 = arith.index_cast %80 : i64 to index
    %106 = arith.cmpi sge, %81, %c0_i64 : i64
    cf.assert %106, "negative values not allowed in new dimensions"
    %107 = arith.index_cast %81 : i64 to index
    %108 = tensor.empty(%103, %105, %107) : tensor<?x4x?x?xf32>
    %109 = linalg.generic {indexing_maps = [#map4, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1 : tensor<f32>) outs(%108 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x4x?x?xf32>
    %110 = arith.cmpi eq, %82, %103 : index
    cf.assert %110, "mismatched size for broadcast"
    %111 = arith.cmpi eq, %83, %105 : index
    cf.assert %111, "mismatched size for broadcast"
    %112 = arith.cmpi eq, %107, %89 : index
    cf.assert %112, "mismatched size for broadcast"
    %113 = tensor.empty(%82, %83, %107) : tensor<?x4x?x?xf32>
    %114 = linalg.generic {indexing_maps = [#map3, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%101, %109, %96 : tensor<?x4x?x1xi1>, tensor<?x4x?x?xf32>, tensor<?x4x?x?xf32>) outs(%113 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: i1, %in_24: f32, %in_25: f32, %out: f32):
      %149 = arith.select %in, %in_24, %in_25 : f32
      linalg.yield %149 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %31, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %6, "unimplemented: dynamic negative broadcast sizes"
    %115 = tensor.empty(%dim_4, %dim, %dim_5) : tensor<?x4x?x?xf32>
    %116 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%115 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %149 = linalg.index 0 : index
      %150 = linalg.index 1 : index
      %151 = linalg.index 2 : index
      %152 = linalg.index 3 : index
      %153 = arith.cmpi eq, %82, %c1 : index
      %154 = arith.select %153, %c0, %149 : index
      %155 = arith.cmpi eq, %83, %c1 : index
      %156 = arith.select %155, %c0, %151 : index
      %157 = arith.cmpi eq, %107, %c1 : index
      %158 = arith.select %157, %c0, %152 : index
      %extracted = tensor.extract %114[%154, %150, %156, %158] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %117 = arith.muli %40, %2 : i64
    %118 = arith.addi %41, %c1_i64 : i64
    %119 = arith.select %15, %40, %117 : i64
    %120 = arith.select %15, %118, %41 : i64
    %121 = arith.cmpi sle, %120, %c1_i64 : i64
    cf.assert %121, "must have at most one inferred (negative) dimension"
    %122 = arith.muli %44, %2 : i64
    %123 = arith.divsi %122, %119 : i64
    %124 = arith.select %34, %123, %20 : i64
    %125 = arith.select %39, %123, %0 : i64
    %126 = arith.select %15, %123, %2 : i64
    %from_elements_18 = tensor.from_elements %124, %125, %126 : tensor<3xi64>
    %reshape_19 = tensor.reshape %116(%from_elements_18) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %6, "unimplemented: dynamic negative broadcast sizes"
    %127 = tensor.empty(%dim_4, %dim_5) : tensor<?x4x?x32xf32>
    %128 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%127 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %149 = linalg.index 0 : index
      %150 = linalg.index 1 : index
      %151 = linalg.index 2 : index
      %152 = linalg.index 3 : index
      %153 = arith.cmpi eq, %27, %c1 : index
      %154 = arith.select %153, %c0, %149 : index
      %155 = arith.cmpi eq, %28, %c1 : index
      %156 = arith.select %155, %c0, %151 : index
      %extracted = tensor.extract %reshape_10[%154, %150, %156, %152] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %129 = arith.muli %35, %2 : i64
    %130 = arith.select %15, %35, %129 : i64
    %131 = arith.muli %130, %c32_i64 : i64
    cf.assert %55, "must have at most one inferred (negative) dimension"
    %132 = arith.divsi %22, %131 : i64
    %133 = arith.select %34, %132, %20 : i64
    %134 = arith.select %15, %132, %2 : i64
    %from_elements_20 = tensor.from_elements %133, %134, %c32_i64 : tensor<3xi64>
    %reshape_21 = tensor.reshape %128(%from_elements_20) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %135 = arith.index_cast %124 : i64 to index
    %136 = arith.index_cast %125 : i64 to index
    %137 = arith.cmpi eq, %124, %133 : i64
    cf.assert %137, "mismatching contracting dimension"
    %138 = arith.cmpi eq, %126, %134 : i64
    cf.assert %138, "mismatching contracting dimension"
    %139 = tensor.empty(%135, %136) : tensor<?x?x32xf32>
    %140 = linalg.fill ins(%cst : f32) outs(%139 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %141 = linalg.batch_matmul ins(%reshape_19, %reshape_21 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%140 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %142 = arith.muli %69, %c32_i64 : i64
    %143 = arith.cmpi sle, %70, %c1_i64 : i64
    cf.assert %143, "must have at most one inferred (negative) dimension"
    %144 = arith.muli %124, %125 : i64
    %145 = arith.muli %144, %c32_i64 : i64
    %146 = arith.divsi %145, %142 : i64
    %147 = arith.select %9, %146, %1 : i64
    %148 = arith.select %39, %146, %0 : i64
    %from_elements_22 = tensor.from_elements %147, %c4_i64, %148, %c32_i64 : tensor<4xi64>
    %reshape_23 = tensor.reshape %141(%from_elements_22) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    return %reshape_23 : tensor<?x4x?x32xf32>
  }
}
