// RUN: attention-opt %s -split-input-file --attn-tile="block-q=32 block-kv=16" --canonicalize --cse | FileCheck %s
// RUN: attention-opt %s -split-input-file --attn-decompose | FileCheck %s --check-prefix=DECOMP

// Lq = 96 and Lk = 160. The tiled form must have no value with both a query
// length and a key length dimension; the decomposition, for contrast, does
// materialize the 96x160 scores (which shows that the pattern below can match).
// CHECK-NOT: {{tensor<([0-9?]+x)*96x([0-9?]+x)*160x}}
// CHECK-NOT: {{tensor<([0-9?]+x)*160x([0-9?]+x)*96x}}
// DECOMP: tensor<1x2x96x160xf32>

// Without causal or window masks, and with Lk a multiple of Bc, every key
// block is visited, none is masked, and tiles need no padding.
// CHECK-LABEL: func @plain
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C10:.+]] = arith.constant 10 : index
// CHECK:       scf.forall (%[[H:.+]], %[[QB:.+]]) in (2, 3)
// CHECK:         tensor.extract_slice %{{.+}}[0, %[[H]], %{{.+}}, 0] [1, 1, 32, 32]
// CHECK-SAME:      to tensor<32x32xbf16>
// CHECK:         scf.for %{{.+}} = %[[C0]] to %[[C10]] step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[M:.+]] = %{{.+}}, %[[L:.+]] = %{{.+}}) -> (tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>)
// CHECK-NOT:       scf.if
// CHECK-NOT:       tensor.pad
//                  S = Q K^T, then scale.
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]{{.*}} outs(%{{.+}} : tensor<32x16xf32>)
// CHECK:           arith.mulf
//                  m' = max(m, rowmax S)
// CHECK:           %[[MNEW:.+]] = linalg.generic {{.*}} outs(%[[M]] : tensor<32xf32>)
// CHECK:             arith.maximumf
//                  P = exp(S - m'), alpha = exp(m - m')
// CHECK:           math.exp
// CHECK:           %[[ALPHA:.+]] = linalg.generic {{.*}} ins(%[[M]], %[[MNEW]] : tensor<32xf32>, tensor<32xf32>)
// CHECK:             math.exp
//                  l' = alpha l + rowsum P; acc' = alpha acc + P V
// CHECK:           linalg.generic {{.*}} ins(%[[ALPHA]] : tensor<32xf32>) outs(%[[L]] : tensor<32xf32>)
// CHECK:           %[[LNEW:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:           linalg.generic {{.*}} ins(%[[ALPHA]] : tensor<32xf32>) outs(%[[ACC]] : tensor<32x32xf32>)
// CHECK:           %[[ACCNEW:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]{{.*}} outs(%{{.+}} : tensor<32x32xf32>)
// CHECK:           scf.yield %[[ACCNEW]], %[[MNEW]], %[[LNEW]]
//                  O = acc / l, in bf16.
// CHECK:         arith.divf
// CHECK:         arith.truncf
// CHECK:       scf.forall.in_parallel
// CHECK:         tensor.parallel_insert_slice %{{.+}} into %{{.+}}[0, %[[H]], %{{.+}}, 0] [1, 1, 32, 32]
func.func @plain(%q: tensor<1x2x96x32xbf16>, %k: tensor<1x2x160x32xbf16>, %v: tensor<1x2x160x32xbf16>) -> tensor<1x2x96x32xbf16> {
  %o = attn.attention ins(%q, %k, %v : tensor<1x2x96x32xbf16>, tensor<1x2x160x32xbf16>, tensor<1x2x160x32xbf16>) -> tensor<1x2x96x32xbf16>
  return %o : tensor<1x2x96x32xbf16>
}

// -----

// Causal (bottom-right): the key loop of query block qb stops after the block
// holding key qb*32 + 31 + (160 - 96), so blocks above the diagonal are never
// visited; only blocks crossing the diagonal take the masked branch.
// CHECK-LABEL: func @causal
// CHECK-DAG:   %[[C160:.+]] = arith.constant 160 : index
// CHECK:       scf.forall (%{{.+}}, %[[QB:.+]]) in (2, 3)
// CHECK:         %[[Q0:.+]] = arith.muli %[[QB]], %{{.+}} : index
// CHECK:         %[[HI:.+]] = arith.minsi %{{.+}}, %[[C160]] : index
// CHECK:         %[[LAST:.+]] = arith.ceildivsi %{{.+}}, %{{.+}} : index
// CHECK:         scf.for %[[KB:.+]] = %{{.+}} to %{{.+}} step
//                  Past the last key, or past the first row's diagonal:
// CHECK:           arith.cmpi sgt, %{{.+}}, %[[C160]]
// CHECK:           arith.cmpi sgt
// CHECK:           %[[NEEDS:.+]] = arith.ori
// CHECK:           scf.if %[[NEEDS]] -> (tensor<32x16xf32>)
// CHECK:             arith.cmpi sle
// CHECK:             arith.select %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK:           } else {
// CHECK-NOT:         arith.cmpi
// CHECK:           }
// CHECK:         arith.truncf
// CHECK:       tensor.parallel_insert_slice
// CHECK:       tensor.parallel_insert_slice %{{.+}} into %{{.+}}[0, %{{.+}}, %{{.+}}] [1, 1, 32]
func.func @causal(%q: tensor<1x2x96x32xf16>, %k: tensor<1x2x160x32xf16>, %v: tensor<1x2x160x32xf16>) -> (tensor<1x2x96x32xf16>, tensor<1x2x96xf32>) {
  %o, %l = attn.attention ins(%q, %k, %v : tensor<1x2x96x32xf16>, tensor<1x2x160x32xf16>, tensor<1x2x160x32xf16>) {causal = #attn.causal<bottom_right>} -> tensor<1x2x96x32xf16>, tensor<1x2x96xf32>
  return %o, %l : tensor<1x2x96x32xf16>, tensor<1x2x96xf32>
}

// -----

// Ragged lengths (Lq = 100, Lk = 70): the last query block and the last key
// block are padded to static tiles, and padded key columns are masked.
// GQA: query head h reads kv head h / 4. A broadcast mask is read in blocks.
// CHECK-LABEL: func @ragged_gqa_masked
// CHECK:       scf.forall (%{{.+}}, %[[H:.+]], %{{.+}}) in (2, 8, 4)
// CHECK:         %[[KVH:.+]] = arith.divui %[[H]], %{{.+}} : index
// CHECK:         } : tensor<?x16xf32> to tensor<32x16xf32>
// CHECK:         scf.for
// CHECK:           tensor.extract_slice %{{.+}}[%{{.+}}, %[[KVH]], %{{.+}}, 0]
// CHECK:           } : tensor<?x16xf32> to tensor<16x16xf32>
// CHECK:           tensor.extract_slice %{{.+}}[0, 0, %{{.+}}, %{{.+}}] [1, 1, %{{.+}}, %{{.+}}] [1, 1, 1, 1] : tensor<1x1x100x70xi1> to tensor<?x?xi1>
// CHECK:           } : tensor<?x?xi1> to tensor<32x16xi1>
// CHECK:           scf.if
func.func @ragged_gqa_masked(%q: tensor<2x8x100x16xf32>, %k: tensor<2x2x70x16xf32>, %v: tensor<2x2x70x16xf32>, %m: tensor<1x1x100x70xi1>) -> tensor<2x8x100x16xf32> {
  %o = attn.attention ins(%q, %k, %v : tensor<2x8x100x16xf32>, tensor<2x2x70x16xf32>, tensor<2x2x70x16xf32>) mask(%m : tensor<1x1x100x70xi1>) -> tensor<2x8x100x16xf32>
  return %o : tensor<2x8x100x16xf32>
}

// -----

// Dropout draws its bits at the global position (q0 + i, k0 + j).
// CHECK-LABEL: func @dropout
// CHECK:       scf.for
// CHECK:         linalg.index 0
// CHECK:         linalg.index 1
// CHECK:         arith.mului_extended
// CHECK:         arith.cmpi uge
func.func @dropout(%q: tensor<1x1x64x16xf32>, %k: tensor<1x1x64x16xf32>, %v: tensor<1x1x64x16xf32>, %s: i64, %o: i64) -> tensor<1x1x64x16xf32> {
  %r = attn.attention ins(%q, %k, %v : tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32>, tensor<1x1x64x16xf32>) rng(%s, %o) {dropout_p = 0.5 : f32} -> tensor<1x1x64x16xf32>
  return %r : tensor<1x1x64x16xf32>
}
