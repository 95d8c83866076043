// mha_3d_dynamic (Mha3d: [B, L, H*D] inputs split into heads, as nn.MultiheadAttention does.), exported with a dynamic batch and
// lengths (torch.export Dims) by scripts/export_torch_mlir_cases.py (torch 2.15.0+cu132,
// torch_mlir.fx, output linalg-on-tensors). The raising runs on the dynamic
// function; the proof runs it at several sizes.
// RUN: attention-opt %s --attn-raise-pipeline | FileCheck %s
// RUN: attn-raise-check %s --require-raised --runs=1 --seed=56 '--shapes=2x16x128,2x24x128,2x24x128->2x16x128' '--shapes=1x1x128,1x7x128,1x7x128->1x1x128' '--shapes=3x33x128,3x1x128,3x1x128->3x33x128' '--shapes=2x5x128,2x70x128,2x70x128->2x5x128' | FileCheck %s --check-prefix=PROOF --implicit-check-not=FAIL
// CHECK: attn.attention {{.*}}{scale = 0.17677{{[0-9]+}} : f32}
// PROOF: @mha_3d_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @mha_3d_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @mha_3d_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
// PROOF: @mha_3d_dynamic at {{.*}}: 1 attn.attention after the raising
// PROOF: run 0 result 0 {{.*}}: PASS
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @mha_3d_dynamic(%arg0: tensor<?x?x128xf32>, %arg1: tensor<?x?x128xf32>, %arg2: tensor<?x?x128xf32>) -> tensor<?x?x128xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c1_i64 = arith.constant 1 : i64
    %c4_i64 = arith.constant 4 : i64
    %c32_i64 = arith.constant 32 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %c128_i64 = arith.constant 128 : i64
    %cst_1 = arith.constant 5.6568542494923806 : f64
    %dim = tensor.dim %arg0, %c1 : tensor<?x?x128xf32>
    %0 = arith.index_cast %dim : index to i64
    %dim_2 = tensor.dim %arg1, %c0 : tensor<?x?x128xf32>
    %1 = arith.index_cast %dim_2 : index to i64
    %dim_3 = tensor.dim %arg2, %c1 : tensor<?x?x128xf32>
    %2 = arith.index_cast %dim_3 : index to i64
    %3 = arith.cmpi slt, %1, %c0_i64 : i64
    %4 = arith.select %3, %c1_i64, %1 : i64
    %5 = arith.extui %3 : i1 to i64
    %6 = arith.muli %4, %0 : i64
    %7 = arith.addi %5, %c1_i64 : i64
    %8 = arith.cmpi slt, %0, %c0_i64 : i64
    %9 = arith.select %8, %4, %6 : i64
    %10 = arith.select %8, %7, %5 : i64
    %11 = arith.muli %9, %c128_i64 : i64
    %12 = arith.cmpi sle, %10, %c1_i64 : i64
    cf.assert %12, "must have at most one inferred (negative) dimension"
    %dim_4 = tensor.dim %arg0, %c0 : tensor<?x?x128xf32>
    %13 = arith.index_cast %dim_4 : index to i64
    %14 = arith.muli %13, %0 : i64
    %15 = arith.muli %14, %c128_i64 : i64
    %16 = arith.divsi %15, %11 : i64
    %17 = arith.select %3, %16, %1 : i64
    %18 = arith.select %8, %16, %0 : i64
    %from_elements = tensor.from_elements %17, %18, %c4_i64, %c32_i64 : tensor<4xi64>
    %reshape = tensor.reshape %arg0(%from_elements) : (tensor<?x?x128xf32>, tensor<4xi64>) -> tensor<?x?x4x32xf32>
    %19 = arith.index_cast %17 : i64 to index
    %20 = arith.index_cast %18 : i64 to index
    %21 = tensor.empty(%19, %20) : tensor<?x4x?x32xf32>
    %transposed = linalg.transpose ins(%reshape : tensor<?x?x4x32xf32>) outs(%21 : tensor<?x4x?x32xf32>) permutation = [0, 2, 1, 3] 
    %22 = arith.muli %4, %2 : i64
    %23 = arith.cmpi slt, %2, %c0_i64 : i64
    %24 = arith.select %23, %4, %22 : i64
    %25 = arith.select %23, %7, %5 : i64
    %26 = arith.muli %24, %c128_i64 : i64
    %27 = arith.cmpi sle, %25, %c1_i64 : i64
    cf.assert %27, "must have at most one inferred (negative) dimension"
    %dim_5 = tensor.dim %arg1, %c1 : tensor<?x?x128xf32>
    %28 = arith.index_cast %dim_5 : index to i64
    %29 = arith.muli %1, %28 : i64
    %30 = arith.muli %29, %c128_i64 : i64
    %31 = arith.divsi %30, %26 : i64
    %32 = arith.select %3, %31, %1 : i64
    %33 = arith.select %23, %31, %2 : i64
    %from_elements_6 = tensor.from_elements %32, %33, %c4_i64, %c32_i64 : tensor<4xi64>
    %reshape_7 = tensor.reshape %arg1(%from_elements_6) : (tensor<?x?x128xf32>, tensor<4xi64>) -> tensor<?x?x4x32xf32>
    %34 = arith.index_cast %32 : i64 to index
    %35 = arith.index_cast %33 : i64 to index
    cf.assert %27, "must have at most one inferred (negative) dimension"
    %dim_8 = tensor.dim %arg2, %c0 : tensor<?x?x128xf32>
    %36 = arith.index_cast %dim_8 : index to i64
    %37 = arith.muli %36, %2 : i64
    %38 = arith.muli %37, %c128_i64 : i64
    %39 = arith.divsi %38, %26 : i64
    %40 = arith.select %3, %39, %1 : i64
    %41 = arith.select %23, %39, %2 : i64
    %from_elements_9 = tensor.from_elements %40, %41, %c4_i64, %c32_i64 : tensor<4xi64>
    %reshape_10 = tensor.reshape %arg2(%from_elements_9) : (tensor<?x?x128xf32>, tensor<4xi64>) -> tensor<?x?x4x32xf32>
    %42 = arith.index_cast %40 : i64 to index
    %43 = arith.index_cast %41 : i64 to index
    %44 = tensor.empty(%42, %43) : tensor<?x4x?x32xf32>
    %transposed_11 = linalg.transpose ins(%reshape_10 : tensor<?x?x4x32xf32>) outs(%44 : tensor<?x4x?x32xf32>) permutation = [0, 2, 1, 3] 
    %45 = tensor.empty(%34, %35) : tensor<?x4x32x?xf32>
    %transposed_12 = linalg.transpose ins(%reshape_7 : tensor<?x?x4x32xf32>) outs(%45 : tensor<?x4x32x?xf32>) permutation = [0, 2, 3, 1] 
    %46 = arith.muli %1, %c4_i64 : i64
    %47 = arith.cmpi sge, %1, %c0_i64 : i64
    cf.assert %47, "unimplemented: dynamic negative broadcast sizes"
    %48 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %48, "unimplemented: dynamic negative broadcast sizes"
    %49 = tensor.empty(%dim_2, %dim) : tensor<?x4x?x32xf32>
    %50 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%49 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %158 = linalg.index 0 : index
      %159 = linalg.index 1 : index
      %160 = linalg.index 2 : index
      %161 = linalg.index 3 : index
      %162 = arith.cmpi eq, %19, %c1 : index
      %163 = arith.select %162, %c0, %158 : index
      %164 = arith.cmpi eq, %20, %c1 : index
      %165 = arith.select %164, %c0, %160 : index
      %extracted = tensor.extract %transposed[%163, %159, %165, %161] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %51 = arith.cmpi slt, %46, %c0_i64 : i64
    %52 = arith.select %51, %c1_i64, %46 : i64
    %53 = arith.extui %51 : i1 to i64
    %54 = arith.muli %52, %0 : i64
    %55 = arith.addi %53, %c1_i64 : i64
    %56 = arith.select %8, %52, %54 : i64
    %57 = arith.select %8, %55, %53 : i64
    %58 = arith.muli %56, %c32_i64 : i64
    %59 = arith.cmpi sle, %57, %c1_i64 : i64
    cf.assert %59, "must have at most one inferred (negative) dimension"
    %60 = arith.muli %46, %0 : i64
    %61 = arith.muli %60, %c32_i64 : i64
    %62 = arith.divsi %61, %58 : i64
    %63 = arith.select %51, %62, %46 : i64
    %64 = arith.select %8, %62, %0 : i64
    %from_elements_13 = tensor.from_elements %63, %64, %c32_i64 : tensor<3xi64>
    %reshape_14 = tensor.reshape %50(%from_elements_13) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    cf.assert %47, "unimplemented: dynamic negative broadcast sizes"
    %65 = arith.cmpi sge, %2, %c0_i64 : i64
    cf.assert %65, "unimplemented: dynamic negative broadcast sizes"
    %66 = tensor.empty(%dim_2, %dim_3) : tensor<?x4x32x?xf32>
    %67 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%66 : tensor<?x4x32x?xf32>) {
    ^bb0(%out: f32):
      %158 = linalg.index 0 : index
      %159 = linalg.index 1 : index
      %160 = linalg.index 2 : index
      %161 = linalg.index 3 : index
      %162 = arith.cmpi eq, %34, %c1 : index
      %163 = arith.select %162, %c0, %158 : index
      %164 = arith.cmpi eq, %35, %c1 : index
      %165 = arith.select %164, %c0, %161 : index
      %extracted = tensor.extract %transposed_12[%163, %159, %160, %165] : tensor<?x4x32x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x32x?xf32>
    %68 = arith.muli %52, %c32_i64 : i64
    %69 = arith.muli %68, %2 : i64
    %70 = arith.select %23, %68, %69 : i64
    %71 = arith.select %23, %55, %53 : i64
    %72 = arith.cmpi sle, %71, %c1_i64 : i64
    cf.assert %72, "must have at most one inferred (negative) dimension"
    %73 = arith.muli %1, %c128_i64 : i64
    %74 = arith.muli %73, %2 : i64
    %75 = arith.divsi %74, %70 : i64
    %76 = arith.select %51, %75, %46 : i64
    %77 = arith.select %23, %75, %2 : i64
    %from_elements_15 = tensor.from_elements %76, %c32_i64, %77 : tensor<3xi64>
    %reshape_16 = tensor.reshape %67(%from_elements_15) : (tensor<?x4x32x?xf32>, tensor<3xi64>) -> tensor<?x32x?xf32>
    %78 = arith.index_cast %63 : i64 to index
    %79 = arith.index_cast %64 : i64 to index
    %80 = arith.index_cast %77 : i64 to index
    %81 = arith.cmpi eq, %63, %76 : i64
    cf.assert %81, "mismatching contracting dimension"
    %82 = tensor.empty(%78, %79, %80) : tensor<?x?x?xf32>
    %83 = linalg.fill ins(%cst : f32) outs(%82 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %84 = linalg.batch_matmul ins(%reshape_14, %reshape_16 : tensor<?x?x32xf32>, tensor<?x32x?xf32>) outs(%83 : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %85 = arith.muli %4, %c4_i64 : i64
    %86 = arith.muli %85, %0 : i64
    %87 = arith.select %8, %85, %86 : i64
    %88 = arith.muli %87, %2 : i64
    %89 = arith.addi %10, %c1_i64 : i64
    %90 = arith.select %23, %87, %88 : i64
    %91 = arith.select %23, %89, %10 : i64
    %92 = arith.cmpi sle, %91, %c1_i64 : i64
    cf.assert %92, "must have at most one inferred (negative) dimension"
    %93 = arith.muli %63, %64 : i64
    %94 = arith.muli %93, %77 : i64
    %95 = arith.divsi %94, %90 : i64
    %96 = arith.select %3, %95, %1 : i64
    %97 = arith.select %8, %95, %0 : i64
    %98 = arith.select %23, %95, %2 : i64
    %from_elements_17 = tensor.from_elements %96, %c4_i64, %97, %98 : tensor<4xi64>
    %reshape_18 = tensor.reshape %84(%from_elements_17) : (tensor<?x?x?xf32>, tensor<4xi64>) -> tensor<?x4x?x?xf32>
    %99 = arith.index_cast %96 : i64 to index
    %100 = arith.index_cast %97 : i64 to index
    %101 = arith.index_cast %98 : i64 to index
    %102 = tensor.empty(%99, %100, %101) : tensor<?x4x?x?xf32>
    %103 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%reshape_18 : tensor<?x4x?x?xf32>) outs(%102 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %158 = arith.truncf %cst_1 : f64 to f32
      %159 = arith.divf %in, %158 : f32
      linalg.yield %159 : f32
    } -> tensor<?x4x?x?xf32>
    %104 = tensor.empty(%99, %100) : tensor<?x4x?xi64>
    %105 = linalg.fill ins(%c0_i64 : i64) outs(%104 : tensor<?x4x?xi64>) -> tensor<?x4x?xi64>
    %106 = tensor.empty(%99, %100) : tensor<?x4x?xf32>
    %107 = linalg.fill ins(%cst_0 : f32) outs(%106 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
    %108:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%103 : tensor<?x4x?x?xf32>) outs(%107, %105 : tensor<?x4x?xf32>, tensor<?x4x?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_28: i64):
      %158 = linalg.index 3 : index
      %159 = arith.index_cast %158 : index to i64
      %160 = arith.maximumf %in, %out : f32
      %161 = arith.cmpf ogt, %in, %out : f32
      %162 = arith.select %161, %159, %out_28 : i64
      linalg.yield %160, %162 : f32, i64
    } -> (tensor<?x4x?xf32>, tensor<?x4x?xi64>)
    %expanded = tensor.expand_shape %108#0 [[0], [1], [2, 3]] output_shape [%99, 4, %100, 1] : tensor<?x4x?xf32> into tensor<?x4x?x1xf32>
    %109 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%103, %expanded : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%102 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_28: f32, %out: f32):
      %158 = arith.subf %in, %in_28 : f32
      linalg.yield %158 : f32
    } -> tensor<?x4x?x?xf32>
    %110 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%109 : tensor<?x4x?x?xf32>) outs(%102 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %158 = math.exp %in : f32
      linalg.yield %158 : f32
    } -> tensor<?x4x?x?xf32>
    %111 = tensor.empty(%99, %100) : tensor<?x4x?x1xf32>
    %112 = linalg.fill ins(%cst : f32) outs(%111 : tensor<?x4x?x1xf32>) -> tensor<?x4x?x1xf32>
    %113 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%110 : tensor<?x4x?x?xf32>) outs(%112 : tensor<?x4x?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %158 = arith.addf %in, %out : f32
      linalg.yield %158 : f32
    } -> tensor<?x4x?x1xf32>
    %114 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%110, %113 : tensor<?x4x?x?xf32>, tensor<?x4x?x1xf32>) outs(%102 : tensor<?x4x?x?xf32>) {
    ^bb0(%in: f32, %in_28: f32, %out: f32):
      %158 = arith.divf %in, %in_28 : f32
      linalg.yield %158 : f32
    } -> tensor<?x4x?x?xf32>
    cf.assert %47, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %48, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %65, "unimplemented: dynamic negative broadcast sizes"
    %115 = tensor.empty(%dim_2, %dim, %dim_3) : tensor<?x4x?x?xf32>
    %116 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%115 : tensor<?x4x?x?xf32>) {
    ^bb0(%out: f32):
      %158 = linalg.index 0 : index
      %159 = linalg.index 1 : index
      %160 = linalg.index 2 : index
      %161 = linalg.index 3 : index
      %162 = arith.cmpi eq, %99, %c1 : index
      %163 = arith.select %162, %c0, %158 : index
      %164 = arith.cmpi eq, %100, %c1 : index
      %165 = arith.select %164, %c0, %160 : index
      %166 = arith.cmpi eq, %101, %c1 : index
      %167 = arith.select %166, %c0, %161 : index
      %extracted = tensor.extract %114[%163, %159, %165, %167] : tensor<?x4x?x?xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x?xf32>
    %117 = arith.muli %56, %2 : i64
    %118 = arith.addi %57, %c1_i64 : i64
    %119 = arith.select %23, %56, %117 : i64
    %120 = arith.select %23, %118, %57 : i64
    %121 = arith.cmpi sle, %120, %c1_i64 : i64
    cf.assert %121, "must have at most one inferred (negative) dimension"
    %122 = arith.muli %60, %2 : i64
    %123 = arith.divsi %122, %119 : i64
    %124 = arith.select %51, %123, %46 : i64
    %125 = arith.select %8, %123, %0 : i64
    %126 = arith.select %23, %123, %2 : i64
    %from_elements_19 = tensor.from_elements %124, %125, %126 : tensor<3xi64>
    %reshape_20 = tensor.reshape %116(%from_elements_19) : (tensor<?x4x?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
    cf.assert %47, "unimplemented: dynamic negative broadcast sizes"
    cf.assert %65, "unimplemented: dynamic negative broadcast sizes"
    %127 = tensor.empty(%dim_2, %dim_3) : tensor<?x4x?x32xf32>
    %128 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%127 : tensor<?x4x?x32xf32>) {
    ^bb0(%out: f32):
      %158 = linalg.index 0 : index
      %159 = linalg.index 1 : index
      %160 = linalg.index 2 : index
      %161 = linalg.index 3 : index
      %162 = arith.cmpi eq, %42, %c1 : index
      %163 = arith.select %162, %c0, %158 : index
      %164 = arith.cmpi eq, %43, %c1 : index
      %165 = arith.select %164, %c0, %160 : index
      %extracted = tensor.extract %transposed_11[%163, %159, %165, %161] : tensor<?x4x?x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x4x?x32xf32>
    %129 = arith.muli %52, %2 : i64
    %130 = arith.select %23, %52, %129 : i64
    %131 = arith.muli %130, %c32_i64 : i64
    cf.assert %72, "must have at most one inferred (negative) dimension"
    %132 = arith.muli %46, %2 : i64
    %133 = arith.muli %132, %c32_i64 : i64
    %134 = arith.divsi %133, %131 : i64
    %135 = arith.select %51, %134, %46 : i64
    %136 = arith.select %23, %134, %2 : i64
    %from_elements_21 = tensor.from_elements %135, %136, %c32_i64 : tensor<3xi64>
    %reshape_22 = tensor.reshape %128(%from_elements_21) : (tensor<?x4x?x32xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
    %137 = arith.index_cast %124 : i64 to index
    %138 = arith.index_cast %125 : i64 to index
    %139 = arith.cmpi eq, %124, %135 : i64
    cf.assert %139, "mismatching contracting dimension"
    %140 = arith.cmpi eq, %126, %136 : i64
    cf.assert %140, "mismatching contracting dimension"
    %141 = tensor.empty(%137, %138) : tensor<?x?x32xf32>
    %142 = linalg.fill ins(%cst : f32) outs(%141 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %143 = linalg.batch_matmul ins(%reshape_20, %reshape_22 : tensor<?x?x?xf32>, tensor<?x?x32xf32>) outs(%142 : tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
    %144 = arith.muli %87, %c32_i64 : i64
    cf.assert %12, "must have at most one inferred (negative) dimension"
    %145 = arith.muli %124, %125 : i64
    %146 = arith.muli %145, %c32_i64 : i64
    %147 = arith.divsi %146, %144 : i64
    %148 = arith.select %3, %147, %1 : i64
    %149 = arith.select %8, %147, %0 : i64
    %from_elements_23 = tensor.from_elements %148, %c4_i64, %149, %c32_i64 : tensor<4xi64>
    %reshape_24 = tensor.reshape %143(%from_elements_23) : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x4x?x32xf32>
    %150 = arith.index_cast %148 : i64 to index
    %151 = arith.index_cast %149 : i64 to index
    %152 = tensor.empty(%150, %151) : tensor<?x?x4x32xf32>
    %transposed_25 = linalg.transpose ins(%reshape_24 : tensor<?x4x?x32xf32>) outs(%152 : tensor<?x?x4x32xf32>) permutation = [0, 2, 1, 3] 
    cf.assert %12, "must have at most one inferred (negative) dimension"
    %153 = arith.muli %148, %149 : i64
    %154 = arith.muli %153, %c128_i64 : i64
    %155 = arith.divsi %154, %11 : i64
    %156 = arith.select %3, %155, %1 : i64
    %157 = arith.select %8, %155, %0 : i64
    %from_elements_26 = tensor.from_elements %156, %157, %c128_i64 : tensor<3xi64>
    %reshape_27 = tensor.reshape %transposed_25(%from_elements_26) : (tensor<?x?x4x32xf32>, tensor<3xi64>) -> tensor<?x?x128xf32>
    return %reshape_27 : tensor<?x?x128xf32>
  }
}
