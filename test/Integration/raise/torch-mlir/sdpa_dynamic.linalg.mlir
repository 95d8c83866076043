// sdpa_dynamic (Sdpa), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=51 '--shapes=2x4x16x32,2x4x24x32,2x4x24x32->2x4x16x32' '--shapes=1x4x1x32,1x4x7x32,1x4x7x32->1x4x1x32' '--shapes=3x4x33x32,3x4x1x32,3x4x1x32->3x4x33x32' '--shapes=2x4x5x32,2x4x70x32,2x4x70x32->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.17677{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
// PROOF: @sdpa_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @sdpa_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map3 = affine_map<(d0, d1, d2, d3) -> ()>
module {
  func.func @sdpa_dynamic(%arg0: tensor<?x4x?x32xf32>, %arg1: tensor<?x4x?x32xf32>, %arg2: tensor<?x4x?x32xf32>) -> tensor<?x4x?x32xf32> {
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
    %dim_4 = tensor.dim %arg2, %c0 : tensor<?x4x?x32xf32>
    %1 = arith.index_cast %dim_4 : index to i64
    %dim_5 = tensor.dim %arg2, %c2 : tensor<?x4x?x32xf32>
    %2 = arith.index_cast %dim_5 : index to i64
    %dim_6 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xf32>
    %3 = tensor.empty(%dim_6, %dim) : tensor<?x4x?x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<?x4x?x32xf32>) outs(%3 : tensor<?x4x?x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %136 = arith.truncf %cst_3 : f64 to f32
      %137 = arith.mulf %in, %136 : f32
      linalg.yield %137 : f32
    } -> tensor<?x4x?x32xf32>
    %dim_7 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xf32>
    %dim_8 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xf32>
    %5 = tensor.empty(%dim_7, %dim_8) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x32xf32>) outs(%5 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed : tensor<?x4x32x?xf32>) outs(%5 : tensor<?x4x32x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %136 = arith.truncf %cst_3 : f64 to f32
      %137 = arith.mulf %in, %136 : f32
      linalg.yield %137 : f32
    } -> tensor<?x4x32x?xf32>
    %7 = arith.muli %1, %c4_i64 : i64
    %8 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %8, "unimplemented: dynamic negative broadcast sizes"
    %9 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %9, "unimplemented: dynamic negative broadcast sizes"
    %10 = tensor.empty(%dim_4, %dim) : tensor<?x4x?x32xf32>
    %11 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%10 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %136 = linalg.index 0 : index
      %137 = linalg.index 1 : index
      %138 = linalg.index 2 : index
      %139 = linalg.index 3 : index
      %140 = arith.cmpi eq, %dim_6, %c1 : index
      %141 = arith.select %140, %c0, %136 : index
      %142 = arith.cmpi eq, %dim, %c1 : index
      %143 = arith.select %142, %c0, %138 : index
      %extracted = tensor.extract %4[%141, %137, %143, %139] : tensor<?x4x?x32xf32>
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
      %136 = linalg.index 0 : index
      %137 = linalg.index 1 : index
      %138 = linalg.index 2 : index
      %139 = linalg.index 3 : index
      %140 = arith.cmpi eq, %dim_7, %c1 : index
      %141 = arith.select %140, %c0, %136 : index
      %142 = arith.cmpi eq, %dim_8, %c1 : index
      %143 = arith.select %142, %c0, %139 : index
      %extracted = tensor.extract %6[%141, %137, %138, %143] : tensor<?x4x32x?xf32>
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
    %69 = tensor.empty(%67, %68) : tensor<?x4x?xi64>
    %70 = linalg.fill ins(%c0_i64 : i64) outs(%69 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %71 = tensor.empty(%67, %68) : tensor<?x4x?xf32>
    %72 = linalg.fill ins(%cst_0 : f32) outs(%71 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %73:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%reshape_12 : tensor<?x4x?x?xf32>) outs(%72, %70 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_19: i64):
      %136 = linalg.index 3 : index
      %137 = arith.index_cast %136 : index to i64
      %138 = arith.maximumf %in, %out : f32
      %139 = arith.cmpf ogt, %in, %out : f32
      %140 = arith.select %139, %137, %out_19 : i64
      linalg.yield %138, %140 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded = tensor.expand_shape %73#0 [[0], [1], [2, 3]] output_shape [%67, 4, %68, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %74 = arith.index_cast %66 : i64 to index
    %75 = tensor.empty(%67, %68, %74) : tensor<?x4x?x?xf32>
    %76 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_12, %expanded : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_19: f32, %out: f32):
      %136 = arith.subf %in, %in_19 : f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x?xf32>
    %77 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%76 : tensor<?x4x?x?xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %136 = math.exp %in : f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x?xf32>
    %78 = tensor.empty(%67, %68) : tensor<?x4x?x1xf32>
    %79 = linalg.fill ins(%cst : f32) outs(%78 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %80 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%77 : tensor<?x4x?x?xf32>) outs(%79 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %136 = arith.addf %in, %out : f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x1xf32>
    %81 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%77, %80 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%75 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_19: f32, %out: f32):
      %136 = arith.divf %in, %in_19 : f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x?xf32>
    %82 = tensor.empty(%67, %68, %74) : tensor<?x4x?x?xi1>
    %83 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_12 : tensor<?x4x?x?xf32>) outs(%82 : tensor<?x4x?x?xi1>) {
    ^bb0(%in: f32, %out: i1):
      %136 = arith.extf %in : f32 to f64
      %137 = arith.cmpf oeq, %136, %cst_2 : f64
      linalg.yield %137 : i1
    } -> tensor<?x4x?x?xi1>
    %84 = tensor.empty(%67, %68) : tensor<?x4x?x1xi1>
    %85 = linalg.fill ins(%true : i1) outs(%84 : tensor<?x4x?x1xi1>) -> tensor<?x4x?x1xi1>
    %86 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%83 : tensor<?x4x?x?xi1>) outs(%85 : tensor<?x4x?x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %136 = arith.andi %in, %out : i1
      linalg.yield %136 : i1
    } -> tensor<?x4x?x1xi1>
    %87 = arith.cmpi sge, %64, %c0_i64 : i64
    cf.assert %87, "negative values not allowed in new dimensions"
    %88 = arith.index_cast %64 : i64 to index
    %89 = arith.cmpi sge, %65, %c0_i64 : i64
    cf.assert %89, "negative values not allowed in new dimensions"
    %90 = arith.index_cast %65 : i64 to index
    %91 = arith.cmpi sge, %66, %c0_i64 : i64
    cf.assert %91, "negative values not allowed in new dimensions"
    %92 = arith.index_cast %66 : i64 to index
    %93 = tensor.empty(%88, %90, %92) : tensor<?x4x?x?xf32>
    %94 = linalg.generic {indexing_maps = [#map3, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_1 : tensor<f32>) outs(%93 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x4x?x?xf32>
    %95 = arith.cmpi eq, %67, %88 : index
    cf.assert %95, "mismatched size for broadcast"
    %96 = arith.cmpi eq, %68, %90 : index
    cf.assert %96, "mismatched size for broadcast"
    %97 = arith.cmpi eq, %92, %74 : index
    cf.assert %97, "mismatched size for broadcast"
    %98 = tensor.empty(%67, %68, %92) : tensor<?x4x?x?xf32>
    %99 = linalg.generic {indexing_maps = [#map2, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%86, %94, %81 : tensor<?x4x?x1xi1>, tensor<?x4x?x?xf32>, tensor<?x4x?x?xf32>) outs(%98 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: i1, %in_19: f32, %in_20: f32, %out: f32):
      %136 = arith.select %in, %in_19, %in_20 : f32
      linalg.yield %136 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %8, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %9, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %27, "unimplemented: dynamic negative broadcast sizes"
    %100 = tensor.empty(%dim_4, %dim, %dim_5) : tensor<?x4x?x?xf32>
    %101 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%100 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %136 = linalg.index 0 : index
      %137 = linalg.index 1 : index
      %138 = linalg.index 2 : index
      %139 = linalg.index 3 : index
      %140 = arith.cmpi eq, %67, %c1 : index
      %141 = arith.select %140, %c0, %136 : index
      %142 = arith.cmpi eq, %68, %c1 : index
      %143 = arith.select %142, %c0, %138 : index
      %144 = arith.cmpi eq, %92, %c1 : index
      %145 = arith.select %144, %c0, %139 : index
      %extracted = tensor.extract %99[%141, %137, %143, %145] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %102 = arith.muli %18, %2 : i64
    %103 = arith.addi %19, %c1_i64 : i64
    %104 = arith.select %32, %18, %102 : i64
    %105 = arith.select %32, %103, %19 : i64
    %106 = arith.cmpi sle, %105, %c1_i64 : i64
    cf.assert %106, "must have at most one inferred (negative) dimension"
    %107 = arith.muli %22, %2 : i64
    %108 = arith.divsi %107, %104 : i64
    %109 = arith.select %12, %108, %7 : i64
    %110 = arith.select %17, %108, %0 : i64
    %111 = arith.select %32, %108, %2 : i64
    %from_elements_13 = tensor.from_elements %109, %110, %111 : tensor<3xi64>
    %reshape_14 = tensor.reshape %101(%from_elements_13) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %8, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %27, "unimplemented: dynamic negative broadcast sizes"
    %112 = tensor.empty(%dim_4, %dim_5) : tensor<?x4x?x32xf32>
    %113 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%112 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %136 = linalg.index 0 : index
      %137 = linalg.index 1 : index
      %138 = linalg.index 2 : index
      %139 = linalg.index 3 : index
      %140 = arith.cmpi eq, %dim_4, %c1 : index
      %141 = arith.select %140, %c0, %136 : index
      %142 = arith.cmpi eq, %dim_5, %c1 : index
      %143 = arith.select %142, %c0, %138 : index
      %extracted = tensor.extract %arg2[%141, %137, %143, %139] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %114 = arith.muli %13, %2 : i64
    %115 = arith.select %32, %13, %114 : i64
    %116 = arith.muli %115, %c32_i64 : i64
    cf.assert %35, "must have at most one inferred (negative) dimension"
    %117 = arith.muli %7, %2 : i64
    %118 = arith.muli %117, %c32_i64 : i64
    %119 = arith.divsi %118, %116 : i64
    %120 = arith.select %12, %119, %7 : i64
    %121 = arith.select %32, %119, %2 : i64
    %from_elements_15 = tensor.from_elements %120, %121, %c32_i64 : tensor<3xi64>
    %reshape_16 = tensor.reshape %113(%from_elements_15) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %122 = arith.index_cast %109 : i64 to index
    %123 = arith.index_cast %110 : i64 to index
    %124 = arith.cmpi eq, %109, %120 : i64
    cf.assert %124, "mismatching contracting dimension"
    %125 = arith.cmpi eq, %111, %121 : i64
    cf.assert %125, "mismatching contracting dimension"
    %126 = tensor.empty(%122, %123) : tensor<?x?x32xf32>
    %127 = linalg.fill ins(%cst : f32) outs(%126 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %128 = linalg.batch_matmul ins(%reshape_14, %reshape_16 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%127 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %129 = arith.muli %54, %c32_i64 : i64
    %130 = arith.cmpi sle, %55, %c1_i64 : i64
    cf.assert %130, "must have at most one inferred (negative) dimension"
    %131 = arith.muli %109, %110 : i64
    %132 = arith.muli %131, %c32_i64 : i64
    %133 = arith.divsi %132, %129 : i64
    %134 = arith.select %48, %133, %1 : i64
    %135 = arith.select %17, %133, %0 : i64
    %from_elements_17 = tensor.from_elements %134, %c4_i64, %135, %c32_i64 : tensor<4xi64>
    %reshape_18 = tensor.reshape %128(%from_elements_17) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    return %reshape_18 : tensor<?x4x?x32xf32>
  }
}
