# Build an openai-whisper model from the CTranslate2 model.bin and export it in sherpa-onnx's Whisper format.
import sys, json, torch, numpy as np, importlib.util
sys.argv=[sys.argv[0]]+sys.argv[1:]
from ct2read import read
import whisper
from whisper.model import Whisper, ModelDimensions
src, name = sys.argv[1], sys.argv[2]
_,_,_,v,_ = read(src+'/model.bin')
cfg=json.load(open(src+'/config.json'))
f=lambda k: torch.from_numpy(np.array(v[k],dtype=np.float32))
nl_e=max(int(k.split('/')[1][6:]) for k in v if k.startswith('encoder/layer_') and k.split('/')[1][6:].isdigit())+1
nl_d=max(int(k.split('/')[1][6:]) for k in v if k.startswith('decoder/layer_') and k.split('/')[1][6:].isdigit())+1
d=v['encoder/conv1/weight'].shape[0]; nv=v['decoder/embeddings/weight'].shape[0]
dims=ModelDimensions(n_mels=v['encoder/conv1/weight'].shape[1], n_audio_ctx=1500, n_audio_state=d, n_audio_head=int(v['encoder/num_heads']), n_audio_layer=nl_e,
    n_vocab=nv, n_text_ctx=448, n_text_state=d, n_text_head=int(v['decoder/num_heads']), n_text_layer=nl_d)
print(dims)
m=Whisper(dims); sd={}
def lin(dst,srcp,rows=None,bias=True):
    W=f(srcp+'/weight'); B=f(srcp+'/bias') if srcp+'/bias' in v else None
    if rows: W=W[rows[0]:rows[1]]; B=B[rows[0]:rows[1]] if B is not None else None
    sd[dst+'.weight']=W
    if bias: sd[dst+'.bias']=B
def ln(dst,srcp): sd[dst+'.weight']=f(srcp+'/gamma'); sd[dst+'.bias']=f(srcp+'/beta')
for c in ['conv1','conv2']: lin('encoder.'+c,'encoder/'+c)
for i in range(nl_e):
    p=f'encoder/layer_{i}'; q=f'encoder.blocks.{i}'
    ln(q+'.attn_ln',p+'/self_attention/layer_norm')
    lin(q+'.attn.query',p+'/self_attention/linear_0',(0,d)); lin(q+'.attn.key',p+'/self_attention/linear_0',(d,2*d),bias=False); lin(q+'.attn.value',p+'/self_attention/linear_0',(2*d,3*d))
    lin(q+'.attn.out',p+'/self_attention/linear_1')
    ln(q+'.mlp_ln',p+'/ffn/layer_norm'); lin(q+'.mlp.0',p+'/ffn/linear_0'); lin(q+'.mlp.2',p+'/ffn/linear_1')
ln('encoder.ln_post','encoder/layer_norm')
sd['encoder.positional_embedding']=f('encoder/position_encodings/encodings')
sd['decoder.token_embedding.weight']=f('decoder/embeddings/weight')
sd['decoder.positional_embedding']=f('decoder/position_encodings/encodings')
for i in range(nl_d):
    p=f'decoder/layer_{i}'; q=f'decoder.blocks.{i}'
    ln(q+'.attn_ln',p+'/self_attention/layer_norm')
    lin(q+'.attn.query',p+'/self_attention/linear_0',(0,d)); lin(q+'.attn.key',p+'/self_attention/linear_0',(d,2*d),bias=False); lin(q+'.attn.value',p+'/self_attention/linear_0',(2*d,3*d))
    lin(q+'.attn.out',p+'/self_attention/linear_1')
    ln(q+'.cross_attn_ln',p+'/attention/layer_norm')
    lin(q+'.cross_attn.query',p+'/attention/linear_0')
    lin(q+'.cross_attn.key',p+'/attention/linear_1',(0,d),bias=False); lin(q+'.cross_attn.value',p+'/attention/linear_1',(d,2*d))
    lin(q+'.cross_attn.out',p+'/attention/linear_2')
    ln(q+'.mlp_ln',p+'/ffn/layer_norm'); lin(q+'.mlp.0',p+'/ffn/linear_0'); lin(q+'.mlp.2',p+'/ffn/linear_1')
ln('decoder.ln','decoder/layer_norm')
missing,unexp=m.load_state_dict(sd,strict=False); print('missing',missing,'unexpected',unexp)
ah=torch.zeros(nl_d,dims.n_text_head,dtype=torch.bool)
for l,h in cfg['alignment_heads']: ah[l,h]=True
m.register_buffer('alignment_heads', ah.to_sparse(), persistent=False)
m.eval()
# quick check in torch
audio=whisper.load_audio('wav/es.wav'); mel=whisper.log_mel_spectrogram(whisper.pad_or_trim(audio)).unsqueeze(0)
_,probs=m.detect_language(mel); print('torch lang', max(probs[0],key=probs[0].get))


whisper.model.MultiHeadAttention.use_sdpa = False
import export_onnx
export_onnx.load_model=lambda n: m
spec=importlib.util.spec_from_file_location('attn','attn.py'); at=importlib.util.module_from_spec(spec); spec.loader.exec_module(at)
at.load_model=lambda n: m
at.get_args=lambda: type('A',(),{'model':name})()
at.main()
