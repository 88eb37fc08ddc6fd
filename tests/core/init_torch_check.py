#!/usr/bin/env python3
"""Manual cross-check of the table in src/core/nnt_init.h against torch.nn's own initialisation:
prints each PyTorch module's empirical max |x| and variance next to the bound and variance nnt
uses. Run: /usr/bin/python3 tests/core/init_torch_check.py (Debian: apt-get install python3-torch).
"""
import torch, math
torch.manual_seed(0)
def st(name, t, bound=None, std=None):
    t = t.detach().double()
    s = "%-28s max|x| %.6f var %.6g" % (name, t.abs().max().item(), t.var().item())
    if bound is not None: s += "  | ours: bound %.6f var %.6g" % (bound, bound*bound/3)
    if std is not None: s += "  | ours: var %.6g" % (std*std)
    print(s)
l = torch.nn.Linear(250, 400); st("Linear W", l.weight, 1/math.sqrt(250)); st("Linear b", l.bias, 1/math.sqrt(250))
c = torch.nn.Conv2d(32, 64, 3); st("Conv2d W", c.weight, 1/math.sqrt(288)); st("Conv2d b", c.bias, 1/math.sqrt(288))
E=128; m = torch.nn.MultiheadAttention(E, 4)
st("MHA in_proj_weight", m.in_proj_weight, math.sqrt(6/(4*E))); st("MHA out_proj.weight", m.out_proj.weight, 1/math.sqrt(E))
print("MHA in_proj_bias all zero", bool((m.in_proj_bias==0).all()), "out_proj.bias all zero", bool((m.out_proj.bias==0).all()))
g = torch.nn.GRU(40, 100)
for n,p in g.named_parameters(): st("GRU "+n, p, 0.1)
r = torch.nn.RNN(40, 100); st("RNN weight_hh_l0", r.weight_hh_l0, 0.1)
e = torch.nn.Embedding(500, 100); st("Embedding", e.weight, std=1.0)
ln = torch.nn.LayerNorm(33); print("LayerNorm", bool((ln.weight==1).all()), bool((ln.bias==0).all()))
X = torch.empty(200,300); torch.nn.init.xavier_normal_(X, gain=2.0); st("xavier_normal gain 2", X, std=2*math.sqrt(2/500))
torch.nn.init.kaiming_normal_(X, nonlinearity='relu'); st("kaiming_normal relu", X, std=math.sqrt(2/300))
torch.nn.init.kaiming_uniform_(X, mode='fan_out', nonlinearity='relu'); st("kaiming_uniform relu fan_out", X, math.sqrt(6/200))
print("gain tanh", torch.nn.init.calculate_gain('tanh'), "leaky_relu sqrt5", torch.nn.init.calculate_gain('leaky_relu', math.sqrt(5)), 1/math.sqrt(3), "selu", torch.nn.init.calculate_gain('selu'))
w3 = torch.empty(6,4,3); print("fans 3d", torch.nn.init._calculate_fan_in_and_fan_out(w3), "4d", torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(8,3,5,5)))
