// llama_causal_pad_dynamic (LlamaCausalPad: HF's 4-D mask: causal and padding combined into one additive bias.), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=48 '--shapes=2x4x16x32,2x4x16x32,2x4x16x32,2x16->2x4x16x32' '--shapes=1x4x1x32,1x4x1x32,1x4x1x32,1x1->1x4x1x32' '--shapes=3x4x33x32,3x4x33x32,3x4x33x32,3x33->3x4x33x32' '--shapes=2x4x5x32,2x4x5x32,2x4x5x32,2x5->2x4x5x32' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}mask({{.*}}) {scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @llama_causal_pad_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @llama_causal_pad_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @llama_causal_pad_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @llama_causal_pad_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1) -> (0, d1)>
#map4 = affine_map<(d0, d1) -> (d0, 0)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @llama_causal_pad_dynamic(%arg0: tensor<?x4x?x32xf32>, %arg1: tensor<?x4x?x32xf32>, %arg2: tensor<?x4x?x32xf32>, %arg3: tensor<?x?xi64>) -> tensor<?x4x?x32xf32> {
    %true = arith.constant true
    %c1_i64 = arith.constant 1 : i64
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32_i64 = arith.constant 32 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = arith.constant dense<-3.40282347E+38> : tensor<f32>
    %cst_3 = arith.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = arith.constant 5.6568542494923806 : f64
    %cst_5 = arith.constant -3.40282347E+38 : f32
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_6 = tensor.dim %arg2, %c0 : tensor<?x4x?x32xf32>
    %1 = arith.index_cast %dim_6 : index to i64
    %2 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %2, "negative values not allowed in new dimensions"
    cf.assert %2, "negative values not allowed in new dimensions"
    %3 = tensor.empty(%dim, %dim) : tensor<?x?xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst_2 : tensor<f32>) outs(%3 : tensor<?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x?xf32>
    %5 = tensor.empty(%dim) : tensor<?xi64>
    %6 = linalg.generic {indexing_maps = [#map2], iterator_types = ["parallel"]} outs(%5 : tensor<?xi64>) {
    ^bb0(%out: i64):
      %120 = linalg.index 0 : index
      %121 = arith.index_cast %120 : index to i64
      linalg.yield %121 : i64
    } -> tensor<?xi64>
    %expanded = tensor.expand_shape %6 [[0, 1]] output_shape [1, %dim] : tensor<?xi64> into tensor<1x?xi64>
    %expanded_7 = tensor.expand_shape %6 [[0, 1]] output_shape [%dim, 1] : tensor<?xi64> into tensor<?x1xi64>
    %7 = tensor.empty(%dim, %dim) : tensor<?x?xi64>
    %8 = linalg.generic {indexing_maps = [#map3, #map4, #map1], iterator_types = ["parallel", "parallel"]} ins(%expanded, %expanded_7 : tensor<1x?xi64>, tensor<?x1xi64>) outs(%7 : tensor<?x?xi64>) {
    ^bb0(%in: i64, %in_24: i64, %out: i64):
      %120 = arith.subi %in, %in_24 : i64
      linalg.yield %120 : i64
    } -> tensor<?x?xi64>
    %9 = tensor.empty(%dim, %dim) : tensor<?x?xi1>
    %10 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<?x?xi64>) outs(%9 : tensor<?x?xi1>) {
    ^bb0(%in: i64, %out: i1):
      %120 = arith.cmpi sge, %in, %c1_i64 : i64
      linalg.yield %120 : i1
    } -> tensor<?x?xi1>
    cf.assert %true, "mismatched size for broadcast"
    cf.assert %true, "mismatched size for broadcast"
    %11 = tensor.empty(%dim, %dim) : tensor<?x?xf32>
    %12 = linalg.generic {indexing_maps = [#map1, #map1, #map, #map1], iterator_types = ["parallel", "parallel"]} ins(%10, %4, %cst_1 : tensor<?x?xi1>, tensor<?x?xf32>, tensor<f32>) outs(%11 : tensor<?x?xf32>) {
    ^bb0(%in: i1, %in_24: f32, %in_25: f32, %out: f32):
      %120 = arith.select %in, %in_24, %in_25 : f32
      linalg.yield %120 : f32
    } -> tensor<?x?xf32>
    %dim_8 = tensor.dim %arg3, %c0 : tensor<?x?xi64>
    %dim_9 = tensor.dim %arg3, %c1 : tensor<?x?xi64>
    %expanded_10 = tensor.expand_shape %arg3 [[0], [1, 2, 3]] output_shape [%dim_8, 1, 1, %dim_9] : tensor<?x?xi64> into tensor<?x1x1x?xi64>
    %13 = tensor.empty(%dim_8, %dim_9) : tensor<?x1x1x?xf32>
    %14 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_10 : tensor<?x1x1x?xi64>) outs(%13 : tensor<?x1x1x?xf32>) {
    ^bb0(%in: i64, %out: f32):
      %120 = arith.sitofp %in : i64 to f32
      linalg.yield %120 : f32
    } -> tensor<?x1x1x?xf32>
    %15 = linalg.generic {indexing_maps = [#map6, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_3, %14 : tensor<f32>, tensor<?x1x1x?xf32>) outs(%13 : tensor<?x1x1x?xf32>) {
    ^bb0(%in: f32, %in_24: f32, %out: f32):
      %120 = arith.subf %in, %in_24 : f32
      linalg.yield %120 : f32
    } -> tensor<?x1x1x?xf32>
    %16 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<?x1x1x?xf32>) outs(%13 : tensor<?x1x1x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %120 = arith.mulf %in, %cst_5 : f32
      linalg.yield %120 : f32
    } -> tensor<?x1x1x?xf32>
    %expanded_11 = tensor.expand_shape %12 [[0, 1, 2], [3]] output_shape [1, 1, %dim, %dim] : tensor<?x?xf32> into tensor<1x1x?x?xf32>
    %17 = arith.cmpi eq, %dim, %dim_9 : index
    cf.assert %17, "mismatched size for broadcast"
    %18 = tensor.empty(%dim_8, %dim, %dim) : tensor<?x1x?x?xf32>
    %19 = linalg.generic {indexing_maps = [#map7, #map8, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_11, %16 : tensor<1x1x?x?xf32>, tensor<?x1x1x?xf32>) outs(%18 : tensor<?x1x?x?xf32>) {
    ^bb0(%in: f32, %in_24: f32, %out: f32):
      %120 = arith.addf %in, %in_24 : f32
      linalg.yield %120 : f32
    } -> tensor<?x1x?x?xf32>
    %dim_12 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xf32>
    %dim_13 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xf32>
    %20 = tensor.empty(%dim_12, %dim_13) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x32xf32>) outs(%20 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %21 = arith.muli %1, %c4_i64 : i64
    %22 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %22, "unimplemented: dynamic negative broadcast sizes"
    %23 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %23, "unimplemented: dynamic negative broadcast sizes"
    %24 = tensor.empty(%dim_6, %dim) : tensor<?x4x?x32xf32>
    %25 = linalg.generic {indexing_maps = [#map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%24 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %120 = linalg.index 0 : index
      %121 = linalg.index 1 : index
      %122 = linalg.index 2 : index
      %123 = linalg.index 3 : index
      %dim_24 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xf32>
      %124 = arith.cmpi eq, %dim_24, %c1 : index
      %125 = arith.select %124, %c0, %120 : index
      %126 = arith.cmpi eq, %dim, %c1 : index
      %127 = arith.select %126, %c0, %122 : index
      %extracted = tensor.extract %arg0[%125, %121, %127, %123] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %26 = arith.cmpi slt, %21, %c0_i64 : i64
    %27 = arith.select %26, %c1_i64, %21 : i64
    %28 = arith.extui %26 : i1 to i64
    %29 = arith.muli %27, %0 : i64
    %30 = arith.addi %28, %c1_i64 : i64
    %31 = arith.cmpi slt, %0, %c0_i64 : i64
    %32 = arith.select %31, %27, %29 : i64
    %33 = arith.select %31, %30, %28 : i64
    %34 = arith.muli %32, %c32_i64 : i64
    %35 = arith.cmpi sle, %33, %c1_i64 : i64
    cf.assert %35, "must have at most one inferred (negative) dimension"
    %36 = arith.muli %21, %0 : i64
    %37 = arith.muli %36, %c32_i64 : i64
    %38 = arith.divsi %37, %34 : i64
    %39 = arith.select %26, %38, %21 : i64
    %40 = arith.select %31, %38, %0 : i64
    %from_elements = tensor.from_elements %39, %40, %c32_i64 : tensor<3xi64>
    %reshape = tensor.reshape %25(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %22, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %23, "unimplemented: dynamic negative broadcast sizes"
    %41 = tensor.empty(%dim_6, %dim) : tensor<?x4x32x?xf32>
    %42 = linalg.generic {indexing_maps = [#map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%41 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %120 = linalg.index 0 : index
      %121 = linalg.index 1 : index
      %122 = linalg.index 2 : index
      %123 = linalg.index 3 : index
      %124 = arith.cmpi eq, %dim_12, %c1 : index
      %125 = arith.select %124, %c0, %120 : index
      %126 = arith.cmpi eq, %dim_13, %c1 : index
      %127 = arith.select %126, %c0, %123 : index
      %extracted = tensor.extract %transposed[%125, %121, %122, %127] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %43 = arith.muli %27, %c32_i64 : i64
    %44 = arith.muli %43, %0 : i64
    %45 = arith.select %31, %43, %44 : i64
    cf.assert %35, "must have at most one inferred (negative) dimension"
    %46 = arith.muli %1, %c128_i64 : i64
    %47 = arith.muli %46, %0 : i64
    %48 = arith.divsi %47, %45 : i64
    %49 = arith.select %26, %48, %21 : i64
    %50 = arith.select %31, %48, %0 : i64
    %from_elements_14 = tensor.from_elements %49, %c32_i64, %50 : tensor<3xi64>
    %reshape_15 = tensor.reshape %42(%from_elements_14) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %51 = arith.index_cast %39 : i64 to index
    %52 = arith.index_cast %40 : i64 to index
    %53 = arith.index_cast %50 : i64 to index
    %54 = arith.cmpi eq, %39, %49 : i64
    cf.assert %54, "mismatching contracting dimension"
    %55 = tensor.empty(%51, %52, %53) : tensor<?x?x?xf32>
    %56 = linalg.fill ins(%cst : f32) outs(%55 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %57 = linalg.batch_matmul ins(%reshape, %reshape_15 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%56 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %58 = arith.cmpi slt, %1, %c0_i64 : i64
    %59 = arith.select %58, %c1_i64, %1 : i64
    %60 = arith.extui %58 : i1 to i64
    %61 = arith.muli %59, %c4_i64 : i64
    %62 = arith.muli %61, %0 : i64
    %63 = arith.addi %60, %c1_i64 : i64
    %64 = arith.select %31, %61, %62 : i64
    %65 = arith.select %31, %63, %60 : i64
    %66 = arith.muli %64, %0 : i64
    %67 = arith.addi %65, %c1_i64 : i64
    %68 = arith.select %31, %61, %66 : i64
    %69 = arith.select %31, %67, %60 : i64
    %70 = arith.cmpi sle, %69, %c1_i64 : i64
    cf.assert %70, "must have at most one inferred (negative) dimension"
    %71 = arith.muli %39, %40 : i64
    %72 = arith.muli %71, %50 : i64
    %73 = arith.divsi %72, %68 : i64
    %74 = arith.select %58, %73, %1 : i64
    %75 = arith.select %31, %73, %0 : i64
    %from_elements_16 = tensor.from_elements %74, %c4_i64, %75, %75 : tensor<4xi64>
    %reshape_17 = tensor.reshape %57(%from_elements_16) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %76 = arith.index_cast %74 : i64 to index
    %77 = arith.index_cast %75 : i64 to index
    %78 = tensor.empty(%76, %77, %77) : tensor<?x4x?x?xf32>
    %79 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_17 : tensor<?x4x?x?xf32>) outs(%78 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %120 = arith.truncf %cst_4 : f64 to f32
      %121 = arith.divf %in, %120 : f32
      linalg.yield %121 : f32
    } -> tensor<?x4x?x?xf32>
    %80 = arith.cmpi eq, %76, %dim_8 : index
    cf.assert %80, "mismatched size for broadcast"
    %81 = arith.cmpi eq, %77, %dim : index
    cf.assert %81, "mismatched size for broadcast"
    cf.assert %81, "mismatched size for broadcast"
    %82 = linalg.generic {indexing_maps = [#map5, #map9, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%79, %19 : tensor<?x4x?x?xf32>, tensor<?x1x?x?xf32>) outs(%78 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_24: f32, %out: f32):
      %120 = arith.addf %in, %in_24 : f32
      linalg.yield %120 : f32
    } -> tensor<?x4x?x?xf32>
    %83 = tensor.empty(%76, %77) : tensor<?x4x?xi64>
    %84 = linalg.fill ins(%c0_i64 : i64) outs(%83 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %85 = tensor.empty(%76, %77) : tensor<?x4x?xf32>
    %86 = linalg.fill ins(%cst_0 : f32) outs(%85 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %87:2 = linalg.generic {indexing_maps = [#map5, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%82 : tensor<?x4x?x?xf32>) outs(%86, %84 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_24: i64):
      %120 = linalg.index 3 : index
      %121 = arith.index_cast %120 : index to i64
      %122 = arith.maximumf %in, %out : f32
      %123 = arith.cmpf ogt, %in, %out : f32
      %124 = arith.select %123, %121, %out_24 : i64
      linalg.yield %122, %124 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded_18 = tensor.expand_shape %87#0 [[0], [1], [2, 3]] output_shape [%76, 4, %77, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %88 = linalg.generic {indexing_maps = [#map5, #map11, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%82, %expanded_18 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%78 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_24: f32, %out: f32):
      %120 = arith.subf %in, %in_24 : f32
      linalg.yield %120 : f32
    } -> tensor<?x4x?x?xf32>
    %89 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%88 : tensor<?x4x?x?xf32>) outs(%78 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %120 = math.exp %in : f32
      linalg.yield %120 : f32
    } -> tensor<?x4x?x?xf32>
    %90 = tensor.empty(%76, %77) : tensor<?x4x?x1xf32>
    %91 = linalg.fill ins(%cst : f32) outs(%90 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %92 = linalg.generic {indexing_maps = [#map5, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%89 : tensor<?x4x?x?xf32>) outs(%91 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %120 = arith.addf %in, %out : f32
      linalg.yield %120 : f32
    } -> tensor<?x4x?x1xf32>
    %93 = linalg.generic {indexing_maps = [#map5, #map11, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%89, %92 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%78 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_24: f32, %out: f32):
      %120 = arith.divf %in, %in_24 : f32
      linalg.yield %120 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %22, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %23, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %23, "unimplemented: dynamic negative broadcast sizes"
    %94 = tensor.empty(%dim_6, %dim, %dim) : tensor<?x4x?x?xf32>
    %95 = linalg.generic {indexing_maps = [#map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%94 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %120 = linalg.index 0 : index
      %121 = linalg.index 1 : index
      %122 = linalg.index 2 : index
      %123 = linalg.index 3 : index
      %124 = arith.cmpi eq, %76, %c1 : index
      %125 = arith.select %124, %c0, %120 : index
      %126 = arith.cmpi eq, %77, %c1 : index
      %127 = arith.select %126, %c0, %122 : index
      %128 = arith.select %126, %c0, %123 : index
      %extracted = tensor.extract %93[%125, %121, %127, %128] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %96 = arith.muli %32, %0 : i64
    %97 = arith.addi %33, %c1_i64 : i64
    %98 = arith.select %31, %27, %96 : i64
    %99 = arith.select %31, %97, %28 : i64
    %100 = arith.cmpi sle, %99, %c1_i64 : i64
    cf.assert %100, "must have at most one inferred (negative) dimension"
    %101 = arith.muli %36, %0 : i64
    %102 = arith.divsi %101, %98 : i64
    %103 = arith.select %26, %102, %21 : i64
    %104 = arith.select %31, %102, %0 : i64
    %from_elements_19 = tensor.from_elements %103, %104, %104 : tensor<3xi64>
    %reshape_20 = tensor.reshape %95(%from_elements_19) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %22, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %23, "unimplemented: dynamic negative broadcast sizes"
    %105 = linalg.generic {indexing_maps = [#map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%24 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %120 = linalg.index 0 : index
      %121 = linalg.index 1 : index
      %122 = linalg.index 2 : index
      %123 = linalg.index 3 : index
      %124 = arith.cmpi eq, %dim_6, %c1 : index
      %125 = arith.select %124, %c0, %120 : index
      %dim_24 = tensor.dim %arg2, %c2 : tensor<?x4x?x32xf32>
      %126 = arith.cmpi eq, %dim_24, %c1 : index
      %127 = arith.select %126, %c0, %122 : index
      %extracted = tensor.extract %arg2[%125, %121, %127, %123] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    cf.assert %35, "must have at most one inferred (negative) dimension"
    %reshape_21 = tensor.reshape %105(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %106 = arith.index_cast %103 : i64 to index
    %107 = arith.index_cast %104 : i64 to index
    %108 = arith.cmpi eq, %103, %39 : i64
    cf.assert %108, "mismatching contracting dimension"
    %109 = arith.cmpi eq, %104, %40 : i64
    cf.assert %109, "mismatching contracting dimension"
    %110 = tensor.empty(%106, %107) : tensor<?x?x32xf32>
    %111 = linalg.fill ins(%cst : f32) outs(%110 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %112 = linalg.batch_matmul ins(%reshape_20, %reshape_21 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%111 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %113 = arith.muli %64, %c32_i64 : i64
    %114 = arith.cmpi sle, %65, %c1_i64 : i64
    cf.assert %114, "must have at most one inferred (negative) dimension"
    %115 = arith.muli %103, %104 : i64
    %116 = arith.muli %115, %c32_i64 : i64
    %117 = arith.divsi %116, %113 : i64
    %118 = arith.select %58, %117, %1 : i64
    %119 = arith.select %31, %117, %0 : i64
    %from_elements_22 = tensor.from_elements %118, %c4_i64, %119, %c32_i64 : tensor<4xi64>
    %reshape_23 = tensor.reshape %112(%from_elements_22) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    return %reshape_23 : tensor<?x4x?x32xf32>
  }
}
