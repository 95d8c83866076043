// The backward's warp-specialized wgmma key-block kernel (sm_90a default,
// attn-compile --grad-tma=auto|on; TensorCoreGradKeyBlockWgmma.cpp): a
// producer warpgroup in front of the two consumer warpgroups (384 threads),
// setmaxnreg 24 / 240; thread 0 initialises the K/V mbarrier and the two
// Q/dO stages' full (one arrival) and empty (256 consumer threads) ones;
// one producer thread loads K and V with TMA (one box per 64-column panel),
// then per step Q and dO with TMA and the staged lse·log2(e) and D_i rows
// with 256-byte bulk copies, each after an arrive.expect_tx of the step's
// bytes; the consumers wait on the full mbarrier, meet only at named
// barrier 5 before dQ reads dSᵀ (no block barrier in the loop), and
// release the stage on its empty mbarrier. The staged-row workspaces are
// global pointers there; the manifest lists the four tensor maps.
// The bulk dQ: each warpgroup's first thread waits for its previous
// reductions' reads before barrier 5, the warpgroup stores its 64 x 32 dQ
// columns in fragment order, meets at its own 128-thread barrier, and the
// first thread adds them with one 8192-byte bulk reduction; it waits for
// them to finish after the loop. The split kernel (D = 192, Dv = 128) has
// no room for the staging tile and keeps the per-thread reductions.
// RUN: attn-compile %s --chip=sm_90a --emit=gpu -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: attn-compile %s --chip=sm_90a -o %t.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// RUN: attn-compile %s --chip=sm_90a --grad-tma=off -o %t.off.ptx
// RUN: FileCheck %s --check-prefix=OFF < %t.off.json
// RUN: not attn-compile %s --chip=sm_80 --grad-tma=on -o %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=BAD80
// RUN: not attn-compile %s --chip=sm_90a --grad-tma=sometimes -o %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: gpu.func @attn_bwd_dkdv_dq_0(
// CHECK-SAME: %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>,
// CHECK-SAME: attn.tensor_map_args = array<i32: 11, 12, 13, 14>, known_block_size = array<i32: 384, 1, 1>
// CHECK: nvvm.mbarrier.init %{{.+}}, %c1_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK: nvvm.mbarrier.init %{{.+}}, %c1_i32{{(_[0-9]+)?}} :
// CHECK: nvvm.mbarrier.init %{{.+}}, %c256_i32{{(_[0-9]+)?}} :
// CHECK: nvvm.mbarrier.init %{{.+}}, %c1_i32{{(_[0-9]+)?}} :
// CHECK: nvvm.mbarrier.init %{{.+}}, %c256_i32{{(_[0-9]+)?}} :
// CHECK-NOT: mbarrier.init
// CHECK: gpu.barrier
// CHECK: nvvm.setmaxregister  decrease 24
// K (one 64-column panel at D = 64) and V on the K/V mbarrier.
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.+}}, %c32768_i32{{(_[0-9]+)?}} : !llvm.ptr<3>, i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, box[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] : !llvm.ptr<7>, !llvm.ptr
// A step: Q and dO (8192 bytes each) and two rows of 64 f32.
// CHECK: mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.+}}, %c16896_i32{{(_[0-9]+)?}} :
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-COUNT-2: nvvm.cp.async.bulk.shared.cluster.global %{{.+}}, %{{.+}}, %{{.+}}, %c256_i32{{(_[0-9]+)?}} : !llvm.ptr<7>, <1>
// CHECK: nvvm.setmaxregister  increase 240
// CHECK-NOT: gpu.barrier
// CHECK: mbarrier.try_wait.parity
// CHECK: scf.for
// CHECK: mbarrier.try_wait.parity
// CHECK: wgmma.mma_async
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c256_i32
// CHECK-NOT: gpu.barrier
// CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<4096xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// CHECK: "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], 8192;"
// CHECK: nvvm.cp.async.bulk.commit.group
// CHECK: nvvm.mbarrier.arrive %{{.+}} : !llvm.ptr<3>
// CHECK: scf.yield
// CHECK: nvvm.cp.async.bulk.wait_group 0{{$}}
// CHECK-LABEL: gpu.func @attn_bwd_dq_convert_0(

// The split kernel (D + Dv > 256: even blocks dV, odd blocks dK and dQ;
// asked for by its #attn.grad_kernels, which has no `split`: the default
// there is the head split, tensor-core-grad-head-split.mlir):
// both parts of both roles find the mbarriers where thread 0 put them,
// after the two dSᵀ tiles (197632 bytes; a part without dQ once used its
// own layout's offset, and the kernel faulted on the H200).
// CHECK-LABEL: gpu.func @attn_bwd_dkdv_dq_1(
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK-COUNT-5: arith.constant 197632 : index
// CHECK-NOT: arith.constant 197632 : index
// CHECK-NOT: cp.reduce.async.bulk
// CHECK: red.global.add.v4.f32
// CHECK-NOT: cp.reduce.async.bulk
// CHECK-LABEL: gpu.func @attn_bwd_dq_convert_1(

// MANIFEST: "name": "attn_bwd_dkdv_dq_0",
// MANIFEST: "kind": "tensor_map",
// MANIFEST-NEXT: "name": "query_tensor_map",
// MANIFEST-NEXT: "swizzle": 128,
// MANIFEST-NEXT: "tensor": "query"
// MANIFEST: "name": "grad_output_tensor_map",
// MANIFEST: "box": [
// MANIFEST-NEXT: 64,
// MANIFEST-NEXT: 128,
// MANIFEST: "name": "key_tensor_map",
// MANIFEST: "name": "value_tensor_map",
// MANIFEST: "stage": "dkdv_dq",
// MANIFEST: "threads": 384

// OFF: "threads": 256
// OFF: "name": "attn_bwd_dkdv_dq_0",
// OFF-NOT: tensor_map
// OFF: "name": "attn_bwd_dq_convert_0"

// BAD80: grad-tma=on needs chip=sm_90a
// BAD: unsupported grad-tma=sometimes (expected auto, on or off)

func.func @d64_causal(%q: tensor<2x4x200x64xbf16>, %k: tensor<2x2x333x64xbf16>, %v: tensor<2x2x333x64xbf16>, %o: tensor<2x4x200x64xbf16>, %lse: tensor<2x4x200xf32>, %do: tensor<2x4x200x64xbf16>) -> (tensor<2x4x200x64xbf16>, tensor<2x2x333x64xbf16>, tensor<2x2x333x64xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<2x4x200x64xbf16>, tensor<2x2x333x64xbf16>, tensor<2x2x333x64xbf16>) forward(%o, %lse : tensor<2x4x200x64xbf16>, tensor<2x4x200xf32>) grad_output(%do : tensor<2x4x200x64xbf16>) {causal = #attn.causal<bottom_right>} -> tensor<2x4x200x64xbf16>, tensor<2x2x333x64xbf16>, tensor<2x2x333x64xbf16>
  return %dq, %dk, %dv : tensor<2x4x200x64xbf16>, tensor<2x2x333x64xbf16>, tensor<2x2x333x64xbf16>
}

func.func @d192_128_split(%q: tensor<1x2x130x192xbf16>, %k: tensor<1x1x200x192xbf16>, %v: tensor<1x1x200x128xbf16>, %o: tensor<1x2x130x128xbf16>, %lse: tensor<1x2x130xf32>, %do: tensor<1x2x130x128xbf16>) -> (tensor<1x2x130x192xbf16>, tensor<1x1x200x192xbf16>, tensor<1x1x200x128xbf16>) {
  %dq, %dk, %dv = attn.attention_grad ins(%q, %k, %v : tensor<1x2x130x192xbf16>, tensor<1x1x200x192xbf16>, tensor<1x1x200x128xbf16>) forward(%o, %lse : tensor<1x2x130x128xbf16>, tensor<1x2x130xf32>) grad_output(%do : tensor<1x2x130x128xbf16>) {attn.grad_kernels = #attn.grad_kernels<kernel = wgmma, key_block = 128, dq = atomic, loads = tma>} -> tensor<1x2x130x192xbf16>, tensor<1x1x200x192xbf16>, tensor<1x1x200x128xbf16>
  return %dq, %dk, %dv : tensor<1x2x130x192xbf16>, tensor<1x1x200x192xbf16>, tensor<1x1x200x128xbf16>
}
