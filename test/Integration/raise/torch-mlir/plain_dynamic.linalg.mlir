// plain_dynamic: Plain exported with a dynamic batch and sequence length
// (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132, torch_mlir.fx, output linalg-on-tensors). Not raised yet:
// torch-mlir broadcasts dynamic sizes with gathers, and explain says
// so at the gather.
// RUN: attention-opt %s --attn-raise-pipeline=explain 2>&1 | FileCheck %s
// CHECK: remark: attn-fuse: not fused: {{.*}}; it is a gather (tensor.extract in its body), as torch-mlir writes a broadcast of dynamic sizes: not simplified yet, export with static shapes
// CHECK-NOT: attn.attention
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @plain_dynamic(%arg0: tensor<?x4x?x32xf32>, %arg1: tensor<?x4x?x32xf32>, %arg2: tensor<?x4x?x32xf32>) -> tensor<?x4x?x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c4_i64 = arith.constant 4 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32_i64 = arith.constant 32 : i64
    %c1_i64 = arith.constant 1 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %c128_i64 = arith.constant 128 : i64
    %dim = tensor.dim %arg0, %c2 : tensor<?x4x?x32xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_2 = tensor.dim %arg2, %c0 : tensor<?x4x?x32xf32>
    %1 = arith.index_cast %dim_2 : index to i64
    %dim_3 = tensor.dim %arg1, %c0 : tensor<?x4x?x32xf32>
    %dim_4 = tensor.dim %arg1, %c2 : tensor<?x4x?x32xf32>
    %2 = tensor.empty(%dim_3, %dim_4) : tensor<?x4x32x?xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<?x4x?x32xf32>) outs(%2 : tensor<?x4x32x?xf32>) permutation = [0, 1, 3, 2] 
    %3 = arith.muli %1, %c4_i64 : i64
    %4 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    %5 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %6 = tensor.empty(%dim_2, %dim) : tensor<?x4x?x32xf32>
    %7 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%6 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %99 = linalg.index 0 : index
      %100 = linalg.index 1 : index
      %101 = linalg.index 2 : index
      %102 = linalg.index 3 : index
      %dim_14 = tensor.dim %arg0, %c0 : tensor<?x4x?x32xf32>
      %103 = arith.cmpi eq, %dim_14, %c1 : index
      %104 = arith.select %103, %c0, %99 : index
      %105 = arith.cmpi eq, %dim, %c1 : index
      %106 = arith.select %105, %c0, %101 : index
      %extracted = tensor.extract %arg0[%104, %100, %106, %102] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %8 = arith.cmpi slt, %3, %c0_i64 : i64
    %9 = arith.select %8, %c1_i64, %3 : i64
    %10 = arith.extui %8 : i1 to i64
    %11 = arith.muli %9, %0 : i64
    %12 = arith.addi %10, %c1_i64 : i64
    %13 = arith.cmpi slt, %0, %c0_i64 : i64
    %14 = arith.select %13, %9, %11 : i64
    %15 = arith.select %13, %12, %10 : i64
    %16 = arith.muli %14, %c32_i64 : i64
    %17 = arith.cmpi sle, %15, %c1_i64 : i64
    cf.assert %17, "must have at most one inferred (negative) dimension"
    %18 = arith.muli %3, %0 : i64
    %19 = arith.muli %18, %c32_i64 : i64
    %20 = arith.divsi %19, %16 : i64
    %21 = arith.select %8, %20, %3 : i64
    %22 = arith.select %13, %20, %0 : i64
    %from_elements = tensor.from_elements %21, %22, %c32_i64 : tensor<3xi64>
    %reshape = tensor.reshape %7(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %23 = tensor.empty(%dim_2, %dim) : tensor<?x4x32x?xf32>
    %24 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%23 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %99 = linalg.index 0 : index
      %100 = linalg.index 1 : index
      %101 = linalg.index 2 : index
      %102 = linalg.index 3 : index
      %103 = arith.cmpi eq, %dim_3, %c1 : index
      %104 = arith.select %103, %c0, %99 : index
      %105 = arith.cmpi eq, %dim_4, %c1 : index
      %106 = arith.select %105, %c0, %102 : index
      %extracted = tensor.extract %transposed[%104, %100, %101, %106] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %25 = arith.muli %9, %c32_i64 : i64
    %26 = arith.muli %25, %0 : i64
    %27 = arith.select %13, %25, %26 : i64
    cf.assert %17, "must have at most one inferred (negative) dimension"
    %28 = arith.muli %1, %c128_i64 : i64
    %29 = arith.muli %28, %0 : i64
    %30 = arith.divsi %29, %27 : i64
    %31 = arith.select %8, %30, %3 : i64
    %32 = arith.select %13, %30, %0 : i64
    %from_elements_5 = tensor.from_elements %31, %c32_i64, %32 : tensor<3xi64>
    %reshape_6 = tensor.reshape %24(%from_elements_5) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %33 = arith.index_cast %21 : i64 to index
    %34 = arith.index_cast %22 : i64 to index
    %35 = arith.index_cast %32 : i64 to index
    %36 = arith.cmpi eq, %21, %31 : i64
    cf.assert %36, "mismatching contracting dimension"
    %37 = tensor.empty(%33, %34, %35) : tensor<?x?x?xf32>
    %38 = linalg.fill ins(%cst : f32) outs(%37 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %39 = linalg.batch_matmul ins(%reshape, %reshape_6 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%38 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %40 = arith.cmpi slt, %1, %c0_i64 : i64
    %41 = arith.select %40, %c1_i64, %1 : i64
    %42 = arith.extui %40 : i1 to i64
    %43 = arith.muli %41, %c4_i64 : i64
    %44 = arith.muli %43, %0 : i64
    %45 = arith.addi %42, %c1_i64 : i64
    %46 = arith.select %13, %43, %44 : i64
    %47 = arith.select %13, %45, %42 : i64
    %48 = arith.muli %46, %0 : i64
    %49 = arith.addi %47, %c1_i64 : i64
    %50 = arith.select %13, %43, %48 : i64
    %51 = arith.select %13, %49, %42 : i64
    %52 = arith.cmpi sle, %51, %c1_i64 : i64
    cf.assert %52, "must have at most one inferred (negative) dimension"
    %53 = arith.muli %21, %22 : i64
    %54 = arith.muli %53, %32 : i64
    %55 = arith.divsi %54, %50 : i64
    %56 = arith.select %40, %55, %1 : i64
    %57 = arith.select %13, %55, %0 : i64
    %from_elements_7 = tensor.from_elements %56, %c4_i64, %57, %57 : tensor<4xi64>
    %reshape_8 = tensor.reshape %39(%from_elements_7) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %58 = arith.index_cast %56 : i64 to index
    %59 = arith.index_cast %57 : i64 to index
    %60 = tensor.empty(%58, %59, %59) : tensor<?x4x?x?xf32>
    %61 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_8 : tensor<?x4x?x?xf32>) outs(%60 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %99 = arith.truncf %cst_1 : f64 to f32
      %100 = arith.divf %in, %99 : f32
      linalg.yield %100 : f32
    } -> tensor<?x4x?x?xf32>
    %62 = tensor.empty(%58, %59) : tensor<?x4x?xi64>
    %63 = linalg.fill ins(%c0_i64 : i64) outs(%62 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %64 = tensor.empty(%58, %59) : tensor<?x4x?xf32>
    %65 = linalg.fill ins(%cst_0 : f32) outs(%64 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %66:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%61 : tensor<?x4x?x?xf32>) outs(%65, %63 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_14: i64):
      %99 = linalg.index 3 : index
      %100 = arith.index_cast %99 : index to i64
      %101 = arith.maximumf %in, %out : f32
      %102 = arith.cmpf ogt, %in, %out : f32
      %103 = arith.select %102, %100, %out_14 : i64
      linalg.yield %101, %103 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded = tensor.expand_shape %66#0 [[0], [1], [2, 3]] output_shape [%58, 4, %59, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %67 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%61, %expanded : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%60 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %99 = arith.subf %in, %in_14 : f32
      linalg.yield %99 : f32
    } -> tensor<?x4x?x?xf32>
    %68 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%67 : tensor<?x4x?x?xf32>) outs(%60 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %99 = math.exp %in : f32
      linalg.yield %99 : f32
    } -> tensor<?x4x?x?xf32>
    %69 = tensor.empty(%58, %59) : tensor<?x4x?x1xf32>
    %70 = linalg.fill ins(%cst : f32) outs(%69 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %71 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%68 : tensor<?x4x?x?xf32>) outs(%70 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %99 = arith.addf %in, %out : f32
      linalg.yield %99 : f32
    } -> tensor<?x4x?x1xf32>
    %72 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%68, %71 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%60 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %99 = arith.divf %in, %in_14 : f32
      linalg.yield %99 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %73 = tensor.empty(%dim_2, %dim, %dim) : tensor<?x4x?x?xf32>
    %74 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%73 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %99 = linalg.index 0 : index
      %100 = linalg.index 1 : index
      %101 = linalg.index 2 : index
      %102 = linalg.index 3 : index
      %103 = arith.cmpi eq, %58, %c1 : index
      %104 = arith.select %103, %c0, %99 : index
      %105 = arith.cmpi eq, %59, %c1 : index
      %106 = arith.select %105, %c0, %101 : index
      %107 = arith.select %105, %c0, %102 : index
      %extracted = tensor.extract %72[%104, %100, %106, %107] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %75 = arith.muli %14, %0 : i64
    %76 = arith.addi %15, %c1_i64 : i64
    %77 = arith.select %13, %9, %75 : i64
    %78 = arith.select %13, %76, %10 : i64
    %79 = arith.cmpi sle, %78, %c1_i64 : i64
    cf.assert %79, "must have at most one inferred (negative) dimension"
    %80 = arith.muli %18, %0 : i64
    %81 = arith.divsi %80, %77 : i64
    %82 = arith.select %8, %81, %3 : i64
    %83 = arith.select %13, %81, %0 : i64
    %from_elements_9 = tensor.from_elements %82, %83, %83 : tensor<3xi64>
    %reshape_10 = tensor.reshape %74(%from_elements_9) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %4, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %84 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%6 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %99 = linalg.index 0 : index
      %100 = linalg.index 1 : index
      %101 = linalg.index 2 : index
      %102 = linalg.index 3 : index
      %103 = arith.cmpi eq, %dim_2, %c1 : index
      %104 = arith.select %103, %c0, %99 : index
      %dim_14 = tensor.dim %arg2, %c2 : tensor<?x4x?x32xf32>
      %105 = arith.cmpi eq, %dim_14, %c1 : index
      %106 = arith.select %105, %c0, %101 : index
      %extracted = tensor.extract %arg2[%104, %100, %106, %102] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    cf.assert %17, "must have at most one inferred (negative) dimension"
    %reshape_11 = tensor.reshape %84(%from_elements) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %85 = arith.index_cast %82 : i64 to index
    %86 = arith.index_cast %83 : i64 to index
    %87 = arith.cmpi eq, %82, %21 : i64
    cf.assert %87, "mismatching contracting dimension"
    %88 = arith.cmpi eq, %83, %22 : i64
    cf.assert %88, "mismatching contracting dimension"
    %89 = tensor.empty(%85, %86) : tensor<?x?x32xf32>
    %90 = linalg.fill ins(%cst : f32) outs(%89 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %91 = linalg.batch_matmul ins(%reshape_10, %reshape_11 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%90 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %92 = arith.muli %46, %c32_i64 : i64
    %93 = arith.cmpi sle, %47, %c1_i64 : i64
    cf.assert %93, "must have at most one inferred (negative) dimension"
    %94 = arith.muli %82, %83 : i64
    %95 = arith.muli %94, %c32_i64 : i64
    %96 = arith.divsi %95, %92 : i64
    %97 = arith.select %40, %96, %1 : i64
    %98 = arith.select %13, %96, %0 : i64
    %from_elements_12 = tensor.from_elements %97, %c4_i64, %98, %c32_i64 : tensor<4xi64>
    %reshape_13 = tensor.reshape %91(%from_elements_12) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    return %reshape_13 : tensor<?x4x?x32xf32>
  }
}
